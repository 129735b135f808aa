"""The parts of a screen's snapshot that come straight from the service (docs/web.md): what the
board shows and senses, and how its devices fare. The table control adds the game's part."""

from __future__ import annotations

from controller.service.control import BoardView, DeviceView
from controller.service.host import Host
from controller.table.session import Session
from controller.table.tracker_types import TrackerOutput


def device_view(host: Host, session: Session) -> DeviceView:
    """The backends by name with their last errors, the scanner link, and the virtual hands."""
    backends = host.backends
    link = None
    if backends is not None and (status := backends.device_status()) is not None:
        link = (status, backends.device_detail())
    faults = tuple(f"{fault.name}: {fault.error}" for fault in (session.sensor_fault, session.led_fault) if fault.error)
    if (unsaved := host.persistence.trouble) is not None:
        faults = (*faults, unsaved)
    driver = host.driver
    return DeviceView(
        backends={
            "sensors": host.config.sensors.backend,
            "leds": host.config.leds.backend,
            "sensors_error": session.sensor_fault.error,
            "leds_error": session.led_fault.error,
        },
        link=link,
        faults=faults,
        sim=driver is not None,
        hands_busy=driver is not None and driver.current is not None,
    )


def board_view(host: Host, session: Session, output: TrackerOutput, faulty: bool, sensors_only: bool) -> BoardView:
    """The tracker's output, the LED frame it shows (`faulty`: with the fault indication), and the
    sensor readings, stable and raw."""
    return BoardView(
        output=output,
        map=session.tracker.board,
        frame=session.composer.steady_frame(output.display, faulty),
        readings=session.tracker.stable_readings,
        raw=session.scan_readings(),
        sensors_only=sensors_only,
        scan_hz=host.config.service.scan_hz,
    )
