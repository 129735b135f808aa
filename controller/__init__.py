"""tafel's controller: rules engines, move inference, LED composition, session and command line."""

__version__ = "0.1.0"
