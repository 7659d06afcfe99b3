"""Every message the server reads, declared once: the HTTP request bodies (and query parameters) and the
WebSocket client messages, as :mod:`msgspec` structs, validated by msgspec.

- :data:`BODIES` maps each route that reads a JSON body (``"POST /api/tables"``) to its struct;
  :func:`body` validates a decoded body against one (:class:`~.errors.RequestError` 400 naming the field and
  what it may be); :data:`QUERIES` and :func:`query` do the same for query parameters.
- :data:`CLIENT_MESSAGES` are the WebSocket messages a client sends, a union tagged by ``type``;
  :data:`CLIENT_DECODER` decodes and validates one frame in one pass (``protocol.parse_client`` uses it).
- :mod:`.schema_docs` writes the reference section of ``docs/protocol.md`` from these declarations (a test
  checks the file against it); :mod:`.schema_refusals` puts a validation error in words.

msgspec rather than pydantic: on the WebSocket path, where every move is one message, msgspec decodes and
validates an intent in about a third of the time of the hand-written parser it replaces, pydantic in about
four fifths (``benchmarks/bench_messages.py``, ``docs/benchmarks.md``).

What a type cannot say is checked by a struct's ``check`` after the types (:func:`body` calls it): the
registered bots (which change at run time), a nickname's printable characters after trimming, team names.
Rule options are checked by :class:`~gouji.engine.rules.RuleSet`, which names the option and what it allows.
"""

from __future__ import annotations

import unicodedata
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeVar

import msgspec
from msgspec import UNSET, Meta, Struct, UnsetType

from ...bots import BOTS
from ...competition.round_robin import MAX_TEAM_NAME, MAX_TEAMS, EventError, check_teams
from ...engine.rules import PRESETS
from ...engine.seats import SEATS
from ..errors import RequestError
from .schema_refusals import _json_type, refusal

# ------------------------------------------------------------------------------------------ bounds

VERSION = 1
"""The protocol version; a ``hello`` with another version is refused."""
MAX_MESSAGE_BYTES = 2048
"""The largest client message the server reads; longer ones are refused unread."""
MAX_ACTION_CHARS = 64
"""The longest action text (the longest legal play of four decks is well under this)."""
MAX_TOKEN_CHARS = 128
MAX_ID_CHARS = 64
MAX_PHRASE_CHARS = 32
MAX_COUNTER = 2**53 - 1
"""The largest state or decision number a client may send (what a JavaScript number holds exactly)."""
MAX_NICKNAME = 24
MAX_RAW_NICKNAME = 64
"""A nickname as sent, before trimming the spaces around it."""
MAX_SET_LENGTH = 20
MAX_MATCH_DEALS = 20
MAX_FIXTURE_CHARS = 16
TURN_SECONDS: tuple[float, float] = (0.05, 3600)
"""The turn timer a table may have, in seconds (or none)."""
BOT_DELAY: tuple[float, float] = (0, 10)
"""The seconds a bot may wait before it acts (the masking time of every decision)."""
READY_SECONDS: tuple[float, float] = (0.05, 3600)
"""The pause between two deals a table may wait for its players, in seconds (or none: its turn time)."""

# ------------------------------------------------------------------------------------------ field types

Id = Annotated[str, Meta(max_length=MAX_ID_CHARS, description="echoed in the answer to the message")]
Token = Annotated[str, Meta(min_length=1, max_length=MAX_TOKEN_CHARS, description="a seat's secret token")]
OwnerToken = Annotated[str, Meta(min_length=1, max_length=MAX_TOKEN_CHARS, description="the organiser's token")]
Counter = Annotated[int, Meta(ge=0, le=MAX_COUNTER)]
Nickname = Annotated[
    str,
    Meta(
        min_length=1,
        max_length=MAX_RAW_NICKNAME,
        description=f"1-{MAX_NICKNAME} printable characters once the spaces around are trimmed",
    ),
]
BotName = Annotated[str, Meta(min_length=1, max_length=32, extra={"words": "a bot's name (GET /api/bots)"})]
Seat = Annotated[int, Meta(ge=0, le=SEATS - 1)]
TeamName = Annotated[
    str,
    Meta(
        min_length=1,
        max_length=MAX_RAW_NICKNAME,
        description=f"1-{MAX_TEAM_NAME} printable characters without a comma, distinct",
    ),
]
if TYPE_CHECKING:
    Preset = str
    SeatKey = str
else:
    Preset = Literal[tuple(PRESETS)]
    SeatKey = Literal[tuple(str(s) for s in range(SEATS))]
Options = Annotated[
    dict[str, Any],
    Meta(
        description='rule options over the preset\'s (e.g. {"bie_san": false}); RuleSet checks each one — '
        "type, range, allowed words, list lengths, decks 1-8 and removed cards that leave a playable deck — "
        "and a refusal names the option and what it allows"
    ),
]
TurnSeconds = Annotated[float, Meta(ge=TURN_SECONDS[0], le=TURN_SECONDS[1])]
ReadySeconds = Annotated[float, Meta(ge=READY_SECONDS[0], le=READY_SECONDS[1])]
BotDelay = Annotated[float, Meta(ge=BOT_DELAY[0], le=BOT_DELAY[1])]
SixBots = Annotated[list[BotName | None], Meta(min_length=SEATS, max_length=SEATS)]
Deals = Annotated[int, Meta(ge=1, le=MAX_MATCH_DEALS)]

# ------------------------------------------------------------------------------------------ WebSocket messages


class ClientBase(Struct, tag_field="type", frozen=True, kw_only=True):
    """Every client message: ``type`` (its tag) and an optional ``id`` its answer (error, pong) echoes."""

    id: Id | None = None


class Hello(ClientBase, tag="hello", frozen=True, kw_only=True):
    """Must come first. With a seat token the connection plays that seat; without one it watches. Answered by
    ``welcome`` and a full ``state``."""

    v: Annotated[int, Meta(description=f"the protocol version, {VERSION}")]
    token: Token | None = None


class Act(ClientBase, tag="act", frozen=True, kw_only=True):
    """An intent: the action's text form (``"QQQ"``, ``"pass"``, ``"yield"``, ``"burn KKK"``, ``"revolt"``,
    ``"declare"``, ``"return 65"`` …) and the decision it answers (``turn.decision`` of the view it was chosen
    in). Instead of ``decision``, an older client may send ``state`` (the state number of that view): such an
    intent is stale after *any* change. One of the two is required."""

    action: Annotated[str, Meta(min_length=1, max_length=MAX_ACTION_CHARS)]
    token: Token
    decision: Counter | None = None
    state: Counter | None = None


class Auto(ClientBase, tag="auto", frozen=True, kw_only=True):
    """托管 on or off for your own seat."""

    on: bool
    token: Token


class Ready(ClientBase, tag="ready", frozen=True, kw_only=True):
    """Between two deals of a set: your seat is ready for the next deal."""

    token: Token


class Sync(ClientBase, tag="sync", frozen=True, kw_only=True):
    """Send me the full state again."""


class Ping(ClientBase, tag="ping", frozen=True, kw_only=True):
    """Answered by ``pong``."""


class Prefs(ClientBase, tag="prefs", frozen=True, kw_only=True):
    """Be asked even for decisions with one legal answer (not stored: a page sends it again when it
    connects)."""

    ask_single: bool
    token: Token


class Say(ClientBase, tag="say", frozen=True, kw_only=True):
    """A quick phrase or an emote to the table (server/tables/phrases.py); never stored."""

    phrase: Annotated[str, Meta(min_length=1, max_length=MAX_PHRASE_CHARS)]
    token: Token


CLIENT_MESSAGES: tuple[type[ClientBase], ...] = (Hello, Act, Auto, Ready, Sync, Ping, Prefs, Say)
"""The WebSocket messages a client sends, by ``type``."""
CLIENT_TYPES: tuple[str, ...] = tuple(str(m.__struct_config__.tag) for m in CLIENT_MESSAGES)
ClientMessageType = Hello | Act | Auto | Ready | Sync | Ping | Prefs | Say
CLIENT_DECODER: msgspec.json.Decoder[ClientMessageType] = msgspec.json.Decoder(ClientMessageType)
"""One client frame, decoded and validated in one pass."""

# ------------------------------------------------------------------------------------------ HTTP bodies


class Body(Struct, forbid_unknown_fields=True, kw_only=True, frozen=True):
    """A JSON request body: an object of these fields and no others."""

    def check(self) -> None:
        """What the types cannot say (raises :class:`~.errors.RequestError` naming the field)."""


def valid_bot(value: object, field: str = "bots") -> str | None:
    """A seat's bot as a request names it: a registered bot's name or null; raises :class:`RequestError`
    naming ``field`` (the registry changes at run time, so no type can list it)."""
    if value is None:
        return None
    if not isinstance(value, str) or value not in BOTS:
        shown = repr(value) if isinstance(value, str) else f"a JSON {_json_type(value)}"
        raise RequestError(400, f"{field}: no bot {shown}; a bot is null or one of {', '.join(sorted(BOTS))}")
    return value


def valid_nickname(value: object, field: str = "nickname") -> str:
    """A nickname: 1-24 printable characters after trimming; raises :class:`RequestError`."""
    if not isinstance(value, str):
        raise RequestError(400, f"{field} must be a string")
    name = value.strip()
    if not 1 <= len(name) <= MAX_NICKNAME or not name.isprintable():
        raise RequestError(400, f"{field} must be 1-{MAX_NICKNAME} printable characters")
    return name


def name_key(name: str) -> str:
    """What makes two names the same person's: after Unicode NFKC and case folding ("Alice", "ＡＬＩＣＥ")."""
    return unicodedata.normalize("NFKC", name.strip()).casefold()


class TableSettings(Body, frozen=True, kw_only=True):
    """The settings of a table (and of the tables of a match or an event)."""

    options: Options = msgspec.field(default_factory=dict)
    turn_seconds: Annotated[
        TurnSeconds | UnsetType | None,
        Meta(description="each person's time to act; null: no timer; default the server's (30)"),
    ] = UNSET
    ready_seconds: Annotated[
        ReadySeconds | None,
        Meta(description="the ready timeout between two deals; default the server's, else turn_seconds"),
    ] = None
    bot_delay: Annotated[
        BotDelay | UnsetType, Meta(description="the masking time of every decision; default the server's (0.4)")
    ] = UNSET
    card_counter: Annotated[bool, Meta(description="记牌器: when false the views carry no `played`")] = True


class CreateTable(TableSettings, frozen=True, kw_only=True):
    """A new table; with ``nickname`` (and ``seat``) its creator sits down at once."""

    preset: Preset = "qingdao"
    set_length: Annotated[
        Annotated[int, Meta(ge=1, le=MAX_SET_LENGTH)] | UnsetType, Meta(description="deals; default the preset's")
    ] = UNSET
    bots: Annotated[
        SixBots | dict[SeatKey, BotName | None] | UnsetType,
        Meta(description='six entries, a bot or null (a person\'s seat), or an object seat → bot ({"3": "heuristic"})'),
    ] = UNSET
    nickname: Nickname | None = None
    seat: Seat | None = None
    public: Annotated[bool, Meta(description="listed in the public hall (/hall)")] = False

    def check(self) -> None:
        if isinstance(self.bots, list):
            for i, b in enumerate(self.bots):
                valid_bot(b, f"bots[{i}]")
        elif isinstance(self.bots, dict):
            for k, b in self.bots.items():
                valid_bot(b, f"bots[{k}]")
        if self.nickname is not None:
            valid_nickname(self.nickname)

    def seat_bots(self) -> list[str | None]:
        """The bots, seat by seat (an object's seats not named have none)."""
        if isinstance(self.bots, UnsetType):
            return [None] * SEATS
        if isinstance(self.bots, dict):
            return [self.bots.get(str(s)) for s in range(SEATS)]
        return list(self.bots)


class CreateMatch(TableSettings, frozen=True, kw_only=True):
    """A duplicate match of two teams at two tables."""

    teams: Annotated[list[TeamName], Meta(min_length=2, max_length=2, description="the two teams' names")] = (
        msgspec.field(default_factory=lambda: ["X", "Y"])
    )
    deals: Deals = 4
    preset: Preset = "tournament"
    bots: Annotated[
        Annotated[list[SixBots], Meta(min_length=2, max_length=2)] | dict[TeamName, BotName | None] | None,
        Meta(
            description="two lists of six (table 1, table 2 by seat), a bot or null; or an object team → bot "
            '({"X": "heuristic"}: the bot stands in for the whole team)'
        ),
    ] = None

    def check(self) -> None:
        teams = _teams(self.teams)
        if isinstance(self.bots, dict):
            for name, bot in self.bots.items():
                if name not in teams:
                    raise RequestError(400, f"bots: no team {name!r} in this match")
                valid_bot(bot, f"bots[{name!r}]")
        elif self.bots is not None:
            for t, six in enumerate(self.bots):
                for s, b in enumerate(six):
                    valid_bot(b, f"bots[{t}][{s}]")


TEAM_SEATS = SEATS // 2
"""The seats of a team at a table (its members 1-3 in an event's ``bots``)."""
TeamSeats = Annotated[
    list[BotName | None],
    Meta(
        min_length=TEAM_SEATS,
        max_length=TEAM_SEATS,
        extra={"words": f"three seats (a list of {TEAM_SEATS}, each a bot's name or null)"},
    ),
]


class CreateEvent(TableSettings, frozen=True, kw_only=True):
    """A round robin of several teams."""

    teams: Annotated[list[TeamName], Meta(min_length=2, max_length=MAX_TEAMS)]
    deals: Deals = 4
    preset: Preset = "tournament"
    bots: Annotated[
        dict[TeamName, BotName | TeamSeats | None],
        Meta(
            description="team → a bot that stands in for the whole team, or the team's three seats, each a bot or "
            'null, a person\'s ({"Red": [null, "novice", "heuristic"]}: seat k is the team\'s k-th seat at both '
            "tables of each of its matches, seats 2k-1 and 2k of the table by the rules' numbers); a team not "
            "named is people"
        ),
    ] = msgspec.field(default_factory=dict)

    def check(self) -> None:
        teams = _teams(self.teams)
        for team, bot in self.bots.items():
            if team not in teams:
                raise RequestError(400, f"bots: no team {team!r} in this event")
            if isinstance(bot, list):
                for k, b in enumerate(bot):
                    valid_bot(b, f"bots[{team!r}][{k}]")
            else:
                valid_bot(bot, f"bots[{team!r}]")


def _teams(names: list[str]) -> list[str]:
    try:
        return check_teams(names)
    except EventError as e:
        raise RequestError(400, f"teams: {e}") from None


class JoinTable(Body, frozen=True, kw_only=True):
    """Take a free seat (the one asked for, else the first)."""

    nickname: Nickname
    seat: Seat | None = None

    def check(self) -> None:
        valid_nickname(self.nickname)

    @property
    def name(self) -> str:
        """The nickname as seated: trimmed (:meth:`check` made sure that leaves a valid one)."""
        return self.nickname.strip()


class JoinTeam(Body, frozen=True, kw_only=True):
    """Take a free seat of the team (at either table, or the one asked for)."""

    nickname: Nickname
    table: Annotated[int, Meta(ge=0, le=1)] | None = None
    seat: Seat | None = None

    def check(self) -> None:
        valid_nickname(self.nickname)

    @property
    def name(self) -> str:
        """The nickname as seated: trimmed (:meth:`check` made sure that leaves a valid one)."""
        return self.nickname.strip()


class SeatToken(Body, frozen=True, kw_only=True):
    """A body of one seat's token: leave the seat, a hint for it, a finished deal's replay or its review."""

    token: Token


class OwnerTokenBody(Body, frozen=True, kw_only=True):
    """A body of the organiser's (a table's creator's) token: close it."""

    owner_token: OwnerToken


class StartMatch(Body, frozen=True, kw_only=True):
    """The organiser starts one match of the schedule."""

    owner_token: OwnerToken
    fixture: Annotated[str, Meta(min_length=1, max_length=MAX_FIXTURE_CHARS, description='e.g. "r1m2"')]


class TeamCodes(Body, frozen=True, kw_only=True):
    """The organiser reads a match's join codes, after replacing one team's (``rotate``)."""

    owner_token: OwnerToken
    rotate: Annotated[int, Meta(ge=0, le=1, description="the team (0 or 1) whose code is replaced first")] | None = None


class DealQuery(Struct, kw_only=True, frozen=True):
    """The query of ``GET /api/records/{id}/deals/{n}``: the table of a duplicate match's record."""

    table: Annotated[int, Meta(ge=0, le=1, description="a duplicate match's table (default 0)")] | None = None


class ReviewQuery(Struct, kw_only=True, frozen=True):
    """The query of a deal's 复盘 review (``…/deals/{n}/review``): the seat reviewed, and a match's table."""

    seat: Annotated[int, Meta(ge=0, le=5, description="the seat reviewed (a table: the token's)")] | None = None
    table: Annotated[int, Meta(ge=0, le=1, description="a duplicate match's table (default 0)")] | None = None


# ------------------------------------------------------------------------------------------ accounts and the hall
# What an account's name and password may be (issue 42): a name is what tables show — 2-16 characters after
# trimming (Chinese welcome), letters, digits, marks, punctuation, symbols and single spaces, no control,
# format (zero-width, bidirectional), private-use or unassigned characters, no line breaks; two names are the
# same account's when they are the same after NFKC and case folding (:func:`name_key`).  A password is 8-256
# characters (the upper bound keeps a hash's cost bounded).

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


class EmptyBody(Body, frozen=True, kw_only=True):
    """No fields (an empty body, or ``{}``)."""


class QuickPlay(Body, frozen=True, kw_only=True):
    """``POST /api/quickplay``: a preset, and whether 高手 bots may fill the table."""

    preset: Preset = "qingdao"
    bots: bool = True


class BlockBody(Body, frozen=True, kw_only=True):
    name: Annotated[str, Meta(min_length=1, max_length=64)]


class ReportBody(Body, frozen=True, kw_only=True):
    """``POST /api/reports``: who, at which table, and why (plain text, at most 300 characters)."""

    table: Annotated[str, Meta(min_length=1, max_length=16)]
    name: Annotated[str, Meta(min_length=1, max_length=64)]
    reason: Annotated[str, Meta(max_length=300)] = ""


BODIES: dict[str, type[Body]] = {
    "POST /api/tables": CreateTable,
    "POST /api/tables/{code}/join": JoinTable,
    "POST /api/tables/{code}/leave": SeatToken,
    "POST /api/tables/{code}/close": OwnerTokenBody,
    "POST /api/tables/{code}/hint": SeatToken,
    "POST /api/tables/{code}/deals/{n}/replay": SeatToken,
    "POST /api/tables/{code}/deals/{n}/review": SeatToken,
    "POST /api/matches": CreateMatch,
    "POST /api/matches/{code}/close": OwnerTokenBody,
    "POST /api/matches/{code}/codes": TeamCodes,
    "POST /api/teams/{code}/join": JoinTeam,
    "POST /api/events": CreateEvent,
    "POST /api/events/{code}/start": StartMatch,
    "POST /api/events/{code}/close": OwnerTokenBody,
    "POST /api/accounts": NewAccount,
    "POST /api/session": Credentials,
    "POST /api/me/password": PasswordChange,
    "POST /api/me/seats": SeatClaim,
    "POST /api/me/blocks": BlockBody,
    "POST /api/tables/{code}/reclaim": EmptyBody,
    "POST /api/quickplay": QuickPlay,
    "POST /api/reports": ReportBody,
}
"""Every route that reads a JSON body, and its body's schema."""
QUERIES: dict[str, type[Struct]] = {
    "GET /api/records/{id}/deals/{n}": DealQuery,
    "GET /api/records/{id}/deals/{n}/review": ReviewQuery,
    "POST /api/tables/{code}/deals/{n}/review": ReviewQuery,
}
"""Every route that reads query parameters, and theirs."""

# ------------------------------------------------------------------------------------------ validating

S = TypeVar("S", bound=Struct)
B = TypeVar("B", bound=Body)


def body(schema: type[B], data: Any) -> B:
    """``data`` (a decoded JSON body) as ``schema``; :class:`RequestError` (400) naming the field and what it
    may be."""
    if not isinstance(data, dict):
        raise RequestError(400, "the request body is a JSON object")
    fields = set(schema.__struct_fields__)
    unknown = [k for k in data if k not in fields]
    if unknown:
        raise RequestError(
            400, f"unknown fields: {', '.join(sorted(map(str, unknown)))}; the fields are {', '.join(sorted(fields))}"
        )
    try:
        out = msgspec.convert(data, schema)
    except msgspec.ValidationError as e:
        raise RequestError(400, refusal(e, data, schema)) from None
    out.check()
    return out


def query(schema: type[S], params: dict[str, str]) -> S:
    """Query parameters as ``schema`` (numbers from their text); :class:`RequestError` (400) naming one."""
    known = {k: v for k, v in params.items() if k in schema.__struct_fields__}  # (others are ignored)
    try:
        return msgspec.convert(known, schema, strict=False)
    except msgspec.ValidationError as e:
        raise RequestError(400, refusal(e, known, schema)) from None
