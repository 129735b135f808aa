"""The remote tests' Mosquitto is the product's private broker (controller.remote.broker)."""

from controller.remote.broker import PrivateBroker as Broker
from controller.remote.broker import broker_problem

__all__ = ["Broker", "broker_problem"]
