"""What an account's name and password may be, and the request bodies that carry them.

A name is what tables show: 2-16 characters after trimming (Chinese welcome), letters, digits, marks,
punctuation, symbols and single spaces — no control, format (zero-width, bidirectional), private-use or
unassigned characters, no line or paragraph breaks.  Two names are the same account's when they are the same
after Unicode NFKC and case folding (:func:`~gouji.server.schemas.name_key`: "Alice" and "ＡＬＩＣＥ").  A
password is 8-256 characters (the upper bound keeps a hash's cost bounded)."""

from __future__ import annotations

import unicodedata

from ..errors import RequestError
from ..schemas import Body, name_key

NAME_MIN, NAME_MAX = 2, 16
PASSWORD_MIN, PASSWORD_MAX = 8, 256
_REFUSED = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def check_name(value: str, field: str = "name") -> str:
    """The name as stored and shown (trimmed, NFC); a 400 :class:`RequestError` naming ``field`` otherwise."""
    name = unicodedata.normalize("NFC", value.strip())
    if any(unicodedata.category(c) in _REFUSED or (c.isspace() and c != " ") for c in name) or "  " in name:
        raise RequestError(400, f"{field} may hold no control, invisible or line-breaking characters")
    if not NAME_MIN <= len(name) <= NAME_MAX or not NAME_MIN <= len(name_key(name)) <= 2 * NAME_MAX:
        raise RequestError(400, f"{field} must be {NAME_MIN}-{NAME_MAX} characters")
    return name


def check_password(value: str, field: str = "password") -> str:
    if not PASSWORD_MIN <= len(value) <= PASSWORD_MAX:
        raise RequestError(400, f"{field} must be {PASSWORD_MIN}-{PASSWORD_MAX} characters")
    return value


class Credentials(Body, frozen=True, kw_only=True):
    """``POST /api/accounts`` and ``POST /api/session``: a name and a password."""

    name: str
    password: str


class NewAccount(Credentials, frozen=True, kw_only=True):
    """``POST /api/accounts``: the name and the password are checked (a sign-in's are only compared)."""

    def check(self) -> None:
        check_name(self.name)
        check_password(self.password)


class PasswordChange(Body, frozen=True, kw_only=True):
    """``POST /api/me/password``: the password now and the new one."""

    password: str
    new_password: str

    def check(self) -> None:
        check_password(self.new_password, "new_password")


class PasswordOnly(Body, frozen=True, kw_only=True):
    """``DELETE /api/me``: the password, once more."""

    password: str


class SeatClaim(Body, frozen=True, kw_only=True):
    """``POST /api/me/seats``: a seat this browser holds (a table's code and the seat's token), to belong to
    the account from now on."""

    code: str
    token: str
