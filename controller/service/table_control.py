"""What the players change while the service runs, from a screen: a new or resumed game with its
seats (people or bots), the buttons, declared decisions, moves the virtual hands make for a person,
and the table's settings. A part of the `Service` (its `table`), which it reads through `Host`;
every method here runs on the scan loop's thread, between two scans (commands arrive through
`controller.service.control`).

Nothing here is lost by accident: a game left for another goes to the history first, and a new game
that would end one still in progress needs the players to say so (`abandon`).
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from controller.bots import BOTS
from controller.bots.seeds import bot_seed
from controller.bots.thinking import Thinking, thinking_bot
from controller.games import Action, Game, IllegalAction, State, load_game
from controller.games.seats import seat_name
from controller.remote.link import RemoteGame
from controller.remote.lobby import options_here
from controller.remote.messages import Invite
from controller.service.archive import Archive, ArchiveError
from controller.service.control import (
    OLD_SEAT,
    Abandon,
    AnswerBoards,
    AnswerInvite,
    AskBoards,
    Command,
    CommandError,
    ControlChannel,
    Declare,
    InGame,
    MoveEntry,
    NewGame,
    Notice,
    Play,
    PositionView,
    Press,
    Resume,
    Settings,
    ShowCard,
    ShowPin,
    Snapshot,
)
from controller.service.deciding import Candidate, candidate_of, candidates_of, decider_for, press_refusal
from controller.service.disk import trouble_of
from controller.service.host import Host
from controller.service.option_files import OptionFileError, chosen_files, shared_options
from controller.service.remote_play import RemotePlay
from controller.service.table_settings import TableSettings
from controller.service.views import board_view, device_view
from controller.table.board import fits
from controller.table.pin_display import SHOW_MS, pin_frame
from controller.table.session import ABANDON
from controller.table.tracker_types import TrackerOutput
from hal.protocols import BUTTONS, InputEvent

HUMAN = "human"
READINGS_EVERY_MS = 100  # a screen's sensor map follows the raw board at most this often
NOTICES_KEPT = 6
PAGE_INPUTS_KEPT = 16  # the texts pages sent lately: a notice that answers one is for its sender


BOARD_SEAT = "board:"  # a seat of a new game played on another board: "board:club" (docs/remote.md)


def new_game_id() -> str:
    return secrets.token_hex(6)


def moves_of(history: Sequence[State], actions: Sequence[tuple[str, str]]) -> list[MoveEntry]:
    """The move list of a game from its states and its actions' (text, via)."""
    entries = []
    for before, (text, via) in zip(history, actions, strict=False):
        try:
            public = before.public_action_to_str(before.parse_action(text))
        except ValueError:
            public = text
        entries.append(MoveEntry(before.current_player, text, public, via))
    return entries


def now_text() -> str:
    return datetime.now().astimezone().isoformat(timespec="seconds")


class TableControl:
    """The service's controls for front-ends (see the module docstring): a part of the service,
    which reads it through `Host`."""

    def __init__(self, host: Host) -> None:
        self.host = host
        config = host.config
        self.control = ControlChannel()
        self.archive = Archive(Path(config.service.state_dir) / "games", host.log)
        self.settings = TableSettings(host)
        self.seats: tuple[str, ...] = ()
        self.moves: list[MoveEntry] = []
        self.start_record: dict[str, Any] = {}
        self._bots: list[Thinking | None] = []
        self._seated: list[Thinking | None] = []
        self._bot_cache: tuple[State, str] | None = None  # the bot move shown for a position, once decided
        self._changed = True
        self._notices: list[Notice] = []
        self._page_inputs: list[tuple[str, int | None]] = []
        self._revision = 0
        self._published: TrackerOutput | None = None
        self._readings_at = 0
        self._invited_seats: tuple[str, ...] = ()  # who plays this board's seats of the game it invited to

    @property
    def remote_play(self) -> RemotePlay | None:
        return self.host.remote.play if self.host.remote is not None else None

    @property
    def game_id(self) -> str:
        """The game in progress's id: in its start record, in the journal, and in the history."""
        return str(self.start_record.get("id", ""))

    # --- seats and starts ------------------------------------------------------------------------
    def configured_seats(self, players: int) -> tuple[str, ...]:
        """Who plays each seat when the configuration starts a game: on the simulated board the
        configured bot (or people, with `[sim] bots = false`); on a real board people."""
        if self.host.config.sensors.backend == "sim" and self.host.config.sim.bots:
            return (self.host.config.sim.bot,) * players
        return (HUMAN,) * players

    def seats_of(self, start: Mapping[str, Any], players: int) -> tuple[str, ...]:
        seats = start.get("seats")
        known = (HUMAN, *BOTS)
        if isinstance(seats, list | tuple) and len(seats) == players and all(seat in known for seat in seats):
            return tuple(seats)
        return self.configured_seats(players)

    def start_record_of(
        self,
        game: Game,
        players: int,
        seed: int,
        options: Mapping[str, Any],
        seats: Sequence[str],
        origin: str | None = None,
    ) -> dict[str, Any]:
        return {
            "game": game.name,
            "players": players,
            "seed": seed,
            "options": dict(options),
            "seats": list(seats),
            "origin": origin or "config",
            "id": new_game_id(),
        }

    def fits_board(self, game: Game) -> bool:
        """Whether `game` can be played on this board (its fields are all there)."""
        return fits(self.host.config.profile, game, self.host.config.board.sensor_model)

    def bots_for(self, state: State) -> list[Thinking | None]:
        """The bot seats of a new game (the last game's bots stop thinking)."""
        self.close_bots()
        seed = int(self.start_record.get("seed", 0))
        here = self.remote_play.seats_here if self.remote_play is not None else frozenset(range(len(self.seats)))
        self._seated = [
            None if name == HUMAN or seat not in here else thinking_bot(name, bot_seed(seed, seat))
            for seat, name in enumerate(self.seats)
        ]
        return self._seated

    def close_bots(self) -> None:
        for bot in self._seated:
            if bot is not None:
                bot.close()
        self._seated = []

    # --- the move list and the history ------------------------------------------------------------
    def record_move(self, before: State, action: Action, after: State, via: str) -> None:
        if via == "correction" and self.moves:
            self.moves.pop()
        self.moves.append(
            MoveEntry(before.current_player, before.action_to_str(action), before.public_action_to_str(action), via)
        )
        if after.is_terminal():
            self.keep_in_history()
        self._changed = True

    def takeback_move(self, state: State) -> None:
        assert self.host.session is not None
        del self.moves[len(self.host.session.tracker.history) :]
        self._changed = True

    def keep_in_history(self) -> None:
        """The game in progress goes to the history (a finished one, or one left for another). One
        left unfinished that the disk cannot take is not left (CommandError): a game in progress is
        never dropped unrecorded (docs/persistence.md, "When the disk fails")."""
        if self.host.session is None or not self.moves:
            self.archive.write_waiting()  # a game held from before goes now if the disk takes it
            return
        play = self.remote_play
        try:
            self.archive.keep(
                self.game_id,
                self.start_record,
                [move.text for move in self.moves],
                self.host.session.state,
                now_text(),
                play.ended if play is not None else None,
                hold=not self._in_progress(),
            )
        except OSError as error:
            if self._in_progress():
                raise CommandError(
                    f"the history cannot keep this game ({trouble_of(error)}): it stays in progress; "
                    "make room on the disk and try again"
                ) from None

    def _in_progress(self) -> bool:
        if self.remote_play is not None and self.remote_play.ended is not None:
            return False  # the boards ended it (docs/remote.md, rule 10)
        return self.host.session is not None and bool(self.moves) and not self.host.session.state.is_terminal()

    def _refuse_to_drop(self, abandon: bool) -> None:
        if self._in_progress() and not abandon:
            assert self.host.game is not None
            raise CommandError(
                f"a game of {self.host.game.title} is in progress ({len(self.moves)} moves): say to abandon it "
                "(it stays in the history and can be resumed), or go back to it"
            )

    # --- commands ---------------------------------------------------------------------------------
    def execute(self, command: Command) -> str:
        """Carry out one command from a screen; CommandError (nothing changed) when it cannot be done."""
        if isinstance(command, InGame):
            if command.game_id != self.game_id:
                raise CommandError(OLD_SEAT)
            command = command.command
        session = self.host.session
        assert session is not None and self.host.game is not None
        state = session.state
        if self.remote_play is not None and (said := self.remote_play.command(command)) is not None:
            self._changed = True
            return said
        if isinstance(command, Press):
            return self._press(command)
        if isinstance(command, Declare | ShowCard):
            return self._decision(command, state)
        if isinstance(command, Play):
            return self._play(command, state)
        if isinstance(command, Abandon):
            if not self.moves:
                raise CommandError("no move has been made yet: there is nothing to abandon")
            self.keep_in_history()  # refused in words here where the disk cannot take it (the menu's path too)
            session.inject(InputEvent("menu", ABANDON))
            return "game abandoned: it is in the history; set up the board for the new one"
        if isinstance(command, NewGame):
            return self._new_game(command)
        if isinstance(command, AnswerInvite):
            return self._answer_invitation(command)
        if isinstance(command, AnswerBoards):
            raise CommandError("no other board is asking anything: this game is played on this board only")
        if isinstance(command, AskBoards):
            raise CommandError(
                "a draw or a resignation is offered to other boards: this game is played on this board only"
            )
        if isinstance(command, Resume):
            return self._resume(command)
        if isinstance(command, Settings):
            said = self.settings.change(command)
            self._changed = True
            return said
        if isinstance(command, ShowPin):
            try:
                frame = pin_frame(session.tracker.board, command.pin)
            except ValueError as error:
                raise CommandError(str(error)) from None
            session.show_overlay(frame, SHOW_MS)
            return f"the board shows the table PIN on its LEDs for {SHOW_MS // 1000} s"
        raise CommandError(f"unknown command {type(command).__name__}")

    def _check_decider(
        self, seat: int | None, state: State, output: TrackerOutput | None, own_move: bool = False
    ) -> None:
        """A decision is its seat's: refused for another seat, and on the simulated board for a seat a
        bot plays (its virtual hands answer the board themselves). With `own_move` (a declaration or
        a card shown), the seat on turn may always say its own move, whatever the board asks."""
        assert self.host.session is not None
        decider = decider_for(state, self.host.session.tracker.history, output, seat, own_move)
        if decider is None:
            raise CommandError("the game is over")
        if seat is not None and seat != decider:
            raise CommandError(f"it is {seat_name(state, decider)}'s decision now, not {seat_name(state, seat)}'s")
        if self.host.driver is not None and decider < len(self.seats) and self.seats[decider] != HUMAN:
            raise CommandError(f"{seat_name(state, decider)} is played by the {self.seats[decider]} bot")

    def _press(self, command: Press) -> str:
        """A button of the board, pressed on a screen. While the board asks which move was made,
        confirm and next choice are the deciding seat's (see `_check_decider`); on the simulated board
        confirm takes only a candidate the virtual hands made."""
        if command.button not in BUTTONS:
            raise CommandError(f"there is no button {command.button!r} (buttons: {', '.join(BUTTONS)})")
        assert self.host.session is not None
        output = self.host.session.last_output
        if output is not None and output.display.mode == "confirm" and command.button != "undo":
            state, history = self.host.session.state, self.host.session.tracker.history
            hotseat = bool(self.start_record.get("hotseat", False))
            refused = press_refusal(state, history, output, command.button, command.page_seat, hotseat)
            if command.from_page and refused is not None:
                raise CommandError(refused)
            self._check_decider(None, state, output)
            if command.button == "confirm" and output.display.previewed is not None:
                previewed = candidate_of(state, history, output.display.previewed, output.display.played_in)
                if previewed is not None:
                    self._check_made(previewed, "confirm")
        self.host.session.inject(InputEvent("button", command.button))
        return f"{command.button} pressed"

    def _decision(self, command: Declare | ShowCard, state: State) -> str:
        assert self.host.session is not None
        output = self.host.session.last_output
        self._check_decider(command.seat, state, output, own_move=command.own_page)
        speaker = command.seat if command.own_page else None  # whose word it is, where a seat's page said it
        if isinstance(command, ShowCard):
            self._page_input(command.card, command.seat)
            self.host.session.inject(InputEvent("card", command.card, speaker))
            return f"card {command.card} shown"
        asked = self._named_candidate(command.text, state, output, speaker)
        if asked is not None:  # the answer to "which move?": a candidate by its name
            self._check_made(asked, command.text)
            text = asked.text
        else:
            try:
                action = state.parse_action(command.text)
                state.apply(action)
            except IllegalAction as error:
                raise CommandError(f"{command.text}: {error.reason}", from_rules=True) from None
            text = state.action_to_str(action)
        self._page_input(text, command.seat)
        self.host.session.inject(InputEvent("declare", text, speaker))
        return f"{text} declared"

    def _named_candidate(
        self, text: str, state: State, output: TrackerOutput | None, seat: int | None = None
    ) -> Candidate | None:
        """The candidate of the board's question that `text` names (a correction's is played in the
        state before the last move), `seat`'s own where the words are that seat's; None when the
        board asks nothing, or not this."""
        if output is None or output.display.mode != "confirm" or self.host.session is None:
            return None
        found = candidates_of(state, self.host.session.tracker.history, output)
        named = (candidate for candidate in found if candidate.text == text.strip())
        return next((candidate for candidate in named if seat is None or candidate.seat == seat), None)

    def _check_made(self, candidate: Candidate, said: str) -> None:
        """On the simulated board the virtual hands made the move being asked about: a candidate that
        would leave the pieces otherwise is one they did not make, and is refused in words."""
        driver = self.host.driver
        current = driver.current if driver is not None else None
        if current is None or current.before is not candidate.before or current.action == candidate.action:
            return
        made = candidate.before.apply(current.action).occupancy()
        if candidate.before.apply(candidate.action).occupancy() != made:
            raise CommandError(
                f"{said}: the virtual hands made {current.text}, which leaves the pieces otherwise; "
                "choose the move they made"
            )

    def _page_input(self, text: str, seat: int | None) -> None:
        """Remember what a page sent, so the board's answer to it goes to that page's seat only."""
        self._page_inputs = [*self._page_inputs, (text, seat)][-PAGE_INPUTS_KEPT:]

    def tell(self, notices: Sequence[Notice]) -> None:
        """What the board says besides the tracker's messages (another board's word, docs/remote.md)."""
        if notices:
            self._notices = [*self._notices, *notices][-NOTICES_KEPT:]
            self._changed = True

    def _notice_of(self, message: str) -> Notice:
        """A message of the board as a notice, for the seat whose input it answers (or everyone)."""
        for text, seat in reversed(self._page_inputs):
            if message.startswith(f"{text}:"):
                return Notice(message, seat)
        return Notice(message)

    def _play(self, command: Play, state: State) -> str:
        driver = self.host.driver
        if driver is None:
            raise CommandError("on a real board the pieces are moved by hand; the screen follows them")
        output = self.host.session.last_output if self.host.session is not None else None
        self._check_decider(command.seat, state, output)  # the seat on turn, played by a person
        if driver.busy:
            raise CommandError("the hands are still busy with the board; try again in a moment")
        if output is not None and output.display.mode != "idle":
            raise CommandError("the board is waiting for something else first (see what it says)")
        action = self._resolve_play(command, state)
        driver.request(action)
        return f"the virtual hands play {state.action_to_str(action)}"

    def _resolve_play(self, command: Play, state: State) -> Action:
        game = self.host.game
        assert game is not None and self.host.session is not None
        if command.text is not None:
            try:
                action = state.parse_action(command.text)
                state.apply(action)
            except IllegalAction as error:
                raise CommandError(f"{command.text}: {error.reason}", from_rules=True) from None
            return action
        try:
            origin = game.parse_cell(command.origin or "")
            target = game.parse_cell(command.target or "")
        except IllegalAction as error:
            raise CommandError(error.reason) from None
        tracker = self.host.session.tracker
        matching = [
            action
            for action in state.legal_actions()
            if any(m.origin == origin and m.target == target for m in tracker.footprint_of(action).moves)
        ]
        route = f"{command.origin}-{command.target}"
        if not matching:
            who = seat_name(state, state.current_player)
            raise CommandError(f"no legal move of {who} takes a piece {route}", from_rules=True)
        # Actions that move the same pieces the same way are one move for the hands (the board then
        # asks which was meant); different ways (one Catcher or two) are the person's to choose now.
        ways = {tracker.footprint_of(action).moves for action in matching}
        if len(ways) > 1:
            choices = tuple(state.action_to_str(action) for action in matching)
            raise CommandError(f"{route} can be several moves: choose one", choices, from_rules=True)
        return matching[0]

    def _new_game(self, command: NewGame) -> str:
        try:
            game = load_game(command.game)
            game.check_players(command.players)
            chosen = self._option_files(game, command.options)
            options = game.resolve_options(chosen)
        except ValueError as error:
            raise CommandError(str(error)) from None
        if not self.fits_board(game):
            raise CommandError(f"{game.title} cannot be played on this board ({self.host.config.profile.name})")
        known = (HUMAN, *BOTS)
        if any(seat.startswith(BOARD_SEAT) for seat in command.seats) and len(command.seats) == command.players:
            return self._invite(command, game)
        if len(command.seats) != command.players or any(seat not in known for seat in command.seats):
            raise CommandError(f"say for each of the {command.players} seats who plays it: {', '.join(known)}")
        seed = secrets.randbelow(2**31)
        try:
            fresh = game.new_game(players=command.players, seed=seed, **options)
        except ValueError as error:
            raise CommandError(str(error)) from None
        self._refuse_to_drop(command.abandon)
        self.keep_in_history()
        start = self.start_record_of(game, command.players, seed, command.options, command.seats, "lobby")
        start["options"] = chosen
        if command.hotseat:
            start["hotseat"] = True
        self.host.persistence.new_game(start)
        self.host.begin([fresh], start, [])
        self.host.log.info(
            "new game from the lobby: %s, %d players (%s)", game.title, command.players, ", ".join(command.seats)
        )
        return f"a new game of {game.title} starts: set up the board"

    def _invite(self, command: NewGame, game: Game) -> str:
        """A new game with seats played on other boards: invite them; it starts once each accepts.
        A file option travels as the name the screen chose, never as this board's path
        (docs/remote.md, rule 11)."""
        options = shared_options(game, command.options)
        if self.host.remote is None:
            raise CommandError("this board is on no broker ([remote] in the configuration): it cannot invite boards")
        me = self.host.remote.me
        boards = [seat.removeprefix(BOARD_SEAT) if seat.startswith(BOARD_SEAT) else me for seat in command.seats]
        self._invited_seats = tuple(HUMAN if seat.startswith(BOARD_SEAT) else seat for seat in command.seats)
        self._refuse_to_drop(command.abandon)
        try:
            return self.host.remote.invite(game.name, command.players, boards, options)
        except ValueError as error:
            raise CommandError(str(error)) from None

    def _answer_invitation(self, command: AnswerInvite) -> str:
        if self.host.remote is None:
            raise CommandError("this board is on no broker ([remote] in the configuration)")
        if command.accept:
            self._refuse_to_drop(command.abandon)
        try:
            said, news = self.host.remote.answer(command.board, command.accept)
        except ValueError as error:
            raise CommandError(str(error)) from None
        if news.start is not None:
            self.start_remote(*news.start)
        return said

    def start_remote(self, spec: RemoteGame, invite: Invite) -> None:
        """Every board accepted (the host), or this board accepted (a guest): the game starts."""
        assert self.host.remote is not None
        host = spec.host == self.host.remote.me
        try:
            game = load_game(invite.title)
            game.check_players(invite.players)
            # The host plays its own files, chosen by name; a guest reads none (its position, the
            # cards included, is the host's stand-in: docs/remote.md, rule 11).
            options = self._option_files(game, invite.options) if host else options_here(game, invite.options)
            seed = secrets.randbelow(2**31) if host else 0  # a guest's position comes from the host
            fresh = game.new_game(players=invite.players, seed=seed, **game.resolve_options(options))
            self.keep_in_history()  # CommandError, a ValueError: the game in progress cannot be left
        except ValueError as error:
            self.host.log.error("the game across boards cannot start here: %s", error)
            if host:  # the boards that accepted wait for this board: they hear that it will not begin
                self.host.remote.call_off(spec, f"board {spec.host} cannot start it: {error}")
            return
        invited = self._invited_seats if host else ()
        seats = invited if len(invited) == invite.players else self.configured_seats(invite.players)
        start = self.start_record_of(game, invite.players, seed, dict(invite.options), seats, "remote")
        start["options"] = options
        start["remote"] = {"game": spec.game, "host": spec.host, "seats": list(spec.seats)}
        self.host.persistence.new_game(start)
        state_dir = self.host.config.service.state_dir
        self.host.remote.play = RemotePlay.start(self.host.remote.link, spec, [fresh], [], state_dir, self.host.log)
        self.host.begin([fresh], start, [])
        self.host.log.info(
            "a game across boards starts: %s, hosted by board %s (%s)", game.title, spec.host, ", ".join(spec.seats)
        )

    def _option_files(self, game: Game, options: Mapping[str, Any]) -> dict[str, Any]:
        """`options` from a screen, with each file chosen by name turned into its path. A screen never
        names a path: only the files the board knows (option_files.py)."""
        try:
            return chosen_files(self.host.config.service.state_dir, game, options)
        except OptionFileError as error:
            raise CommandError(str(error)) from None

    def _resume(self, command: Resume) -> str:
        try:
            record = self.archive.get(command.game_id)
            game, states = record.replay()
        except ArchiveError as error:
            raise CommandError(str(error)) from None
        if states[-1].is_terminal() or record.status == "finished":  # over by its rules, or by the boards
            raise CommandError("that game is over; it can be replayed in the history, not resumed")
        if not self.fits_board(game):
            raise CommandError(f"{game.title} cannot be played on this board ({self.host.config.profile.name})")
        self._refuse_to_drop(command.abandon)
        self.keep_in_history()
        start = {**record.start, "origin": "lobby", "id": record.game_id}
        self.host.persistence.replace_game(start, record.actions)
        self.archive.remove(record.game_id)
        self.host.begin(states, start, [(text, "resumed") for text in record.actions])
        self.host.log.info("resumed %s from the history after %d moves", game.title, len(record.actions))
        return f"{game.title} resumes after {len(record.actions)} moves: the LEDs show how to set the board"

    # --- snapshots --------------------------------------------------------------------------------
    def publish(self, now: int, output: TrackerOutput) -> None:
        """Hand the screens a new snapshot when something they show changed."""
        control = self.control
        session = self.host.session
        if not control.wanted or session is None or self.host.game is None:
            return
        sensors_moved = (
            control.sensor_watchers > 0 and session.last_scan_changed and now - self._readings_at >= READINGS_EVERY_MS
        )
        sensors_only = output is self._published and not self._changed
        if sensors_only and not sensors_moved:
            return
        if output.happened.messages:
            self._notices = [*self._notices, *map(self._notice_of, output.happened.messages)][-NOTICES_KEPT:]
        self._published, self._changed, self._readings_at = output, False, now
        self._revision += 1
        devices = device_view(self.host, session)
        problems = control.publish(
            Snapshot(
                revision=self._revision,
                position=PositionView(
                    game_id=self.game_id,
                    game=self.host.game,
                    state=session.state,
                    history=session.tracker.history,
                    moves=tuple(self.moves),
                    seats=self.seats,
                    bot_move=self._bot_move(session.state),
                    hotseat=bool(self.start_record.get("hotseat", False)),
                ),
                board=board_view(self.host, session, output, bool(devices.faults), sensors_only),
                devices=devices,
                settings=self.settings.now(),
                notices=tuple(self._notices),
                remote=self.remote_play.view() if self.remote_play is not None else None,
                lobby=self.host.remote.view() if self.host.remote is not None else None,
            )
        )
        for problem in problems:
            self.host.log.warning("%s", problem)

    def think(self, state: State) -> None:
        """Each scan on a real board: ask the bot on turn for its move (a searching bot answers when
        it has thought); its answer is news for the screens, which tell the players to make it."""
        if self.host.driver is not None or state.is_terminal():
            return
        cached = self._bot_cache
        if cached is not None and cached[0] is state:
            return
        bot = self._bots[state.current_player] if state.current_player < len(self._bots) else None
        action = bot.poll(state) if bot is not None else None
        if action is not None:
            self._bot_cache = (state, state.action_to_str(action))
            self._changed = True

    def _bot_move(self, state: State) -> str | None:
        """On a real board a bot's move is made by the players: the screen says which, once decided."""
        cached = self._bot_cache
        return cached[1] if cached is not None and cached[0] is state else None
