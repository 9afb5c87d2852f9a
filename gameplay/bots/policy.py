"""Which outside-bot URLs may be called: the network policy (docs/outside-bots.md).

A URL is called only if

- it is ``http`` or ``https`` on a port in the allowed set (an allow-list entry may name its
  own port: ``lab-bot:9000`` allows that host on 9000 only);
- every address its host resolves to is public: not loopback, private, link-local, multicast,
  reserved, unspecified or otherwise non-global, whatever the encoding (``2130706433``,
  ``0x7f.1``, ``127.1``, ``::ffff:127.0.0.1`` all resolve to what they mean). Hosts in the
  administrator's allow-list skip this check, for those hosts only: it is how a lab network
  or a test server on 127.0.0.1 is reached. Cloud metadata addresses are refused even then.

The caller connects to the addresses ``addresses`` checked and never resolves the name
again, so DNS cannot answer one thing to the check and another to the connection.

Plain Python: the allow-list, the ports and the resolver are arguments.
"""

import ipaddress
import re
import socket
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from urllib.parse import urlsplit

# 80 and 443 are the web's own; 8000, 8080 and 8443 are where web frameworks and proxies
# serve by default; 8765 is the example bot's (examples/outside_bot.py). No database, cache,
# mail or admin service listens on any of them by default.
DEFAULT_PORTS = (80, 443, 8000, 8080, 8443, 8765)
RESOLVE_SECONDS = 3.0  # a name the system resolver gives no address for by then is refused

# Always refused: no bot is served from a cloud's instance metadata service.
METADATA = frozenset(ipaddress.ip_address(a) for a in (
    "169.254.169.254", "169.254.170.2", "100.100.100.200", "fd00:ec2::254"))

# Checked in this order, so an address gets the most telling name.
KINDS = (("is_unspecified", "unspecified"), ("is_loopback", "loopback"),
         ("is_link_local", "link-local"), ("is_multicast", "multicast"),
         ("is_site_local", "site-local"), ("is_reserved", "reserved"),
         ("is_private", "private"))

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Resolver = Callable[[str, int], Iterable[str]]


class Refused(ValueError):
    """A URL the policy does not let us call; the message says why."""


@dataclass(frozen=True)
class Target:
    """Where a URL points: ``host`` in lower case, without IPv6 brackets or a trailing dot."""

    scheme: str
    host: str
    port: int
    path: str  # with the query, "/" at least
    trusted: bool  # in the administrator's allow-list: private addresses allowed


def target(url: str, *, allowed_hosts: Iterable[str], allowed_ports: Iterable[int]) -> Target:
    """The URL's target, or Refused if its scheme, host or port is not allowed."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as error:
        raise Refused(f"{url!r} is not a usable URL: {error}") from None
    host = (parts.hostname or "").rstrip(".")
    if parts.scheme not in ("http", "https") or not host:
        raise Refused(f"an outside bot's URL must be http(s)://host/…, not {url!r}")
    port = port or (443 if parts.scheme == "https" else 80)
    entries = allow_list(allowed_hosts)
    ports = sorted(set(allowed_ports))
    if (host, port) not in entries and port not in ports:
        raise Refused(f"port {port} is not allowed for outside bots; the allowed ports are "
                      f"{', '.join(map(str, ports))} (OUTSIDE_BOT_ALLOWED_PORTS)")
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    trusted = (host, port) in entries or (host, None) in entries
    return Target(parts.scheme, host, port, path, trusted)


# A control character, raw or percent-encoded (%0d%0a would split a request's header lines).
CONTROL = re.compile(r"[\x00-\x20\x7f]|%(?:[01][0-9a-f]|7f)", re.IGNORECASE)


def normal_url(url: str) -> str:
    """The one spelling of a bot's URL that is stored and compared: scheme and host in lower
    case, no trailing dot, no default port (80 for http, 443 for https), an empty path as "/"
    (other paths as given: a server may tell /bot from /bot/), no fragment (never sent).
    Refused: user info (``user:pw@``), whitespace and control characters, raw or
    percent-encoded."""
    if CONTROL.search(url):
        raise Refused("a bot's URL may not hold spaces or control characters, raw or "
                      "percent-encoded (%0d, %0a, …)")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as error:
        raise Refused(f"{url!r} is not a usable URL: {error}") from None
    scheme = parts.scheme.lower()
    if "@" in parts.netloc:
        raise Refused("a bot's URL may not hold a user name or password (user:pw@host)")
    host = (parts.hostname or "").rstrip(".")
    if scheme not in ("http", "https") or not host:
        raise Refused(f"an outside bot's URL must be http(s)://host/…, not {url!r}")
    netloc = f"[{host}]" if ":" in host else host
    if port is not None and port != (443 if scheme == "https" else 80):
        netloc += f":{port}"
    query = f"?{parts.query}" if parts.query else ""
    return f"{scheme}://{netloc}{parts.path or '/'}{query}"


def allow_list(entries: Iterable[str]) -> set[tuple[str, int | None]]:
    """``host`` or ``host:port`` entries (IPv6 as ``::1`` or ``[::1]:8000``) as pairs."""
    pairs = set()
    for entry in filter(str.strip, entries):
        entry = entry.strip().lower()
        host, port = entry, None
        if entry.startswith("["):
            host, _, rest = entry[1:].partition("]")
            port = rest.removeprefix(":") or None
        elif entry.count(":") == 1:
            host, port = entry.split(":")
        if not host or not (port or "0").isdigit():
            raise Refused(f"{entry!r} in OUTSIDE_BOT_ALLOWED_HOSTS is not host or host:port")
        pairs.add((host.rstrip("."), int(port) if port else None))
    return pairs


def resolve(host: str, port: int) -> list[str]:
    """Every address the system resolver gives, numeric forms (``0x7f.1``) included; OSError
    when it gives none within RESOLVE_SECONDS. The system resolver has no timeout of its own
    (a name whose DNS server never answers held a registration's request as long as it kept
    retrying), so it asks in a thread of its own, left to end when the resolver gives up."""
    found = {}

    def lookup():
        try:
            found["infos"] = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        except Exception as error:  # noqa: BLE001 - raised again in the caller's thread
            found["error"] = error

    asking = threading.Thread(target=lookup, name=f"resolve {host}", daemon=True)
    asking.start()
    asking.join(RESOLVE_SECONDS)
    if asking.is_alive():
        raise OSError(f"no answer within {RESOLVE_SECONDS:g} s")
    if "error" in found:
        raise found["error"]
    return [info[4][0] for info in found["infos"]]


def addresses(target: Target, *, resolver: Resolver = resolve) -> list[Address]:
    """Resolve the host once and check every address; connect only to what this returns."""
    try:
        found = list(dict.fromkeys(ipaddress.ip_address(a) for a in resolver(target.host,
                                                                             target.port)))
    except (OSError, ValueError) as error:
        raise Refused(f"host {target.host!r} does not resolve: "
                      f"{getattr(error, 'strerror', None) or error}") from None
    if not found:
        raise Refused(f"host {target.host!r} does not resolve")
    for address in found:
        kind = "cloud metadata" if unmapped(address) in METADATA else None
        if kind is None and not target.trusted:
            kind = not_public(address)
        if kind is None:
            continue
        # Its kind, never the address a name resolves to: the refusal is shown to any author,
        # who must not learn through it what names resolve to inside our network.
        a_kind = f"{'an' if kind[0] in 'aeiou' else 'a'} {kind} address"
        said = f"is {a_kind}" if str(address) == target.host else f"resolves to {a_kind}"
        if target.trusted:
            raise Refused(f"host {target.host!r} {said}")
        raise Refused(f"host {target.host!r} is not in OUTSIDE_BOT_ALLOWED_HOSTS and {said}")
    return found


def unmapped(address: Address) -> Address:
    """An IPv4-mapped IPv6 address (``::ffff:127.0.0.1``) is the IPv4 address it connects to."""
    return getattr(address, "ipv4_mapped", None) or address


def not_public(address: Address) -> str | None:
    """What kind of non-public address this is, or None when it is public."""
    address = unmapped(address)
    if address.version == 6:  # tunnels to an IPv4 address
        for inner in (address.sixtofour, address.teredo and address.teredo[1]):
            if inner and not_public(inner):
                return not_public(inner)
    for attribute, kind in KINDS:
        if getattr(address, attribute, False):
            return kind
    return None if address.is_global else "non-public"
