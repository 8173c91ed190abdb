"""Errors that name the problem for the user (never a traceback from deep inside)."""


class DeckError(ValueError):
    """A deck that cannot be played: wrong size, too many copies, unknown or unimplemented card."""


class IllegalActionError(ValueError):
    """An action that is not legal in the current game state."""


class CardDataError(RuntimeError):
    """The card data package is missing or unreadable."""


class CacheDirError(RuntimeError):
    """A cache folder that another user owns: what is in it cannot be trusted."""
