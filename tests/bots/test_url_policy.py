"""The outside-bot network policy (issue #16's ports, issue #20's SSRF policy): a URL is called
only if every address its host resolves to is public or the host is allow-listed, on an
allowed port, at the address that was checked, without following redirects, and its answer is
bounded in size and time.  Numeric address forms go through the system's real resolver (no
DNS involved); names go through a fake one."""

import ipaddress
import json
import socket
import ssl
import subprocess
import threading

import pytest

from gameplay.bots import outside
from gameplay.bots.base import BotFault
from gameplay.bots.outside import HttpBot
from gameplay.bots.policy import DEFAULT_PORTS, Refused, addresses, target
from outside_bots import services as outside_bots
from tests.bots.test_outside import Server

REQUEST = {"protocol": "president-bot/1", "decision": "play", "legal": [{"pass": True}]}


def answers(*rounds):
    """A fake resolver giving each round of addresses in turn, and counting its calls."""
    calls = []

    def resolver(host, port):
        calls.append((host, port))
        if len(calls) > len(rounds):
            raise AssertionError(f"{host} resolved a second time")
        return rounds[len(calls) - 1]

    resolver.calls = calls
    return resolver


@pytest.mark.parametrize(("url", "kind", "address"), [
    ("http://127.0.0.1/", "loopback", None),
    ("http://2130706433/", "loopback", "127.0.0.1"),  # decimal
    ("http://0x7f.1/", "loopback", "127.0.0.1"),  # hex, short
    ("http://0x7f000001/", "loopback", "127.0.0.1"),
    ("http://0177.0.0.1/", "loopback", "127.0.0.1"),  # octal
    ("http://127.1/", "loopback", "127.0.0.1"),  # short
    ("http://[::ffff:127.0.0.1]/", "loopback", "127.0.0.1"),  # IPv6-mapped
    ("http://[::1]:8080/", "loopback", None),
    ("http://localhost./", "loopback", "127.0.0.1"),  # trailing dot, through /etc/hosts
    ("http://LocalHost/", "loopback", "127.0.0.1"),
    ("http://0.0.0.0/", "unspecified", None),
    ("http://0/", "unspecified", "0.0.0.0"),
    ("http://[::]/", "unspecified", None),
    ("http://10.0.0.1/", "private", None),
    ("http://172.16.5.4/", "private", None),
    ("http://192.168.1.1:8000/", "private", None),
    ("http://[fc00::1]/", "private", None),
    ("http://100.64.0.1/", "non-public", None),  # carrier-grade NAT
    ("http://169.254.169.254/latest/meta-data/", "cloud metadata", None),
    ("http://[fd00:ec2::254]/", "cloud metadata", None),
    ("http://[::ffff:169.254.169.254]/", "cloud metadata", "169.254.169.254"),
    ("http://169.254.1.1/", "link-local", None),
    ("http://[fe80::1]/", "link-local", None),
    ("http://224.0.0.1/", "multicast", None),
    ("http://[ff02::1]/", "multicast", None),
    ("http://240.0.0.1/", "reserved", None),
    ("http://[2002:7f00:1::1]/", "loopback", None),  # 6to4 tunnel to 127.0.0.1
])
def test_every_form_of_a_non_public_address_is_refused(url, kind, address):
    with pytest.raises(Refused) as refused:
        HttpBot(url, allowed=set())

    said = "resolves to a" if address else "is a"
    assert f"not in OUTSIDE_BOT_ALLOWED_HOSTS and {said}" in str(refused.value)
    assert f" {kind} address" in str(refused.value)
    assert f"to {address}" not in str(refused.value)  # what a name resolves to stays ours


@pytest.mark.parametrize("answer", [["127.0.0.1"], ["93.184.215.14", "10.1.2.3"],
                                    ["2606:4700::6810:85e5", "::1"]])
def test_a_name_is_refused_if_any_of_its_addresses_is_not_public(answer):
    with pytest.raises(Refused, match="host 'bots.example.org' is not in "
                                      "OUTSIDE_BOT_ALLOWED_HOSTS and resolves to a"):
        HttpBot("https://bots.example.org/play", allowed=set(), resolver=answers(answer))


def test_a_public_name_is_accepted_and_its_checked_addresses_are_kept():
    resolver = answers(["93.184.215.14", "2606:4700::6810:85e5", "93.184.215.14"])

    bot = HttpBot("https://Bots.Example.org./play?v=2", allowed=set(), resolver=resolver)

    assert resolver.calls == [("bots.example.org", 443)]
    assert [str(a) for a in bot.addresses] == ["93.184.215.14", "2606:4700::6810:85e5"]
    assert (bot.target.host, bot.target.port, bot.target.path) == (
        "bots.example.org", 443, "/play?v=2")
    assert not bot.target.trusted


def test_a_name_that_does_not_resolve_is_refused_with_the_reason():
    def nowhere(host, port):
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    with pytest.raises(Refused, match="host 'nowhere.example' does not resolve: Name or"):
        HttpBot("http://nowhere.example/", allowed=set(), resolver=nowhere)


def test_a_name_whose_resolver_does_not_answer_is_refused_in_bounded_time(monkeypatch):
    """Found by a security walk-through: the system resolver has no timeout of its own, so a
    bot registered at a name whose DNS server never answers held the request (and a web
    worker) for as long as the resolver kept retrying."""
    from gameplay.bots import policy

    answered = threading.Event()
    monkeypatch.setattr(policy.socket, "getaddrinfo",
                        lambda *args, **kwargs: answered.wait(5) and [])
    monkeypatch.setattr(policy, "RESOLVE_SECONDS", 0.05)
    try:
        with pytest.raises(Refused, match="host 'slow.example' does not resolve: no answer "
                                          "within 0.05 s"):
            HttpBot("http://slow.example/", allowed=set())
    finally:
        answered.set()  # the lookup's thread ends


def test_the_allow_list_lets_its_own_hosts_be_private_and_no_others():
    lab = target("http://lab-bot.lan:8000/", allowed_hosts=["lab-bot.lan"],
                 allowed_ports=DEFAULT_PORTS)
    other = target("http://other.lan:8000/", allowed_hosts=["lab-bot.lan"],
                   allowed_ports=DEFAULT_PORTS)

    assert addresses(lab, resolver=answers(["10.1.2.3"])) == [ipaddress.ip_address("10.1.2.3")]
    with pytest.raises(Refused, match="'other.lan' is not in OUTSIDE_BOT_ALLOWED_HOSTS and "
                                      "resolves to a private address"):
        addresses(other, resolver=answers(["10.1.2.3"]))


def test_cloud_metadata_is_refused_even_on_an_allowed_host():
    bot = HttpBot("http://lab-bot.lan/", allowed={"lab-bot.lan"},
                  resolver=answers(["169.254.169.254"]))

    with pytest.raises(BotFault) as fault:
        bot.exchange_json(REQUEST)

    assert fault.value.kind == "error"
    assert fault.value.message == ("not called: host 'lab-bot.lan' resolves to "
                                   "a cloud metadata address")


@pytest.mark.parametrize("url", ["http://127.0.0.1:5432/", "http://bots.example.org:6379/",
                                 "https://bots.example.org:22/", "http://127.0.0.1:8765/"])
def test_a_port_outside_the_allowed_set_is_refused_even_on_an_allowed_host(url):
    with pytest.raises(Refused) as refused:
        HttpBot(url, allowed={"127.0.0.1", "bots.example.org"}, ports=[80, 443, 8000],
                resolver=answers(["93.184.215.14"]))

    port = url.rsplit(":", 1)[1].strip("/")
    assert str(refused.value) == (f"port {port} is not allowed for outside bots; the allowed "
                                  "ports are 80, 443, 8000 (OUTSIDE_BOT_ALLOWED_PORTS)")


def test_an_allow_list_entry_with_a_port_allows_that_host_on_that_port_only():
    allowed = {"127.0.0.1:5555", "[::1]:5556"}

    assert HttpBot("http://127.0.0.1:5555/", allowed=allowed, ports=[443]).target.trusted
    assert HttpBot("http://[::1]:5556/", allowed=allowed, ports=[443]).target.trusted
    with pytest.raises(Refused, match="port 5556 is not allowed"):
        HttpBot("http://127.0.0.1:5556/", allowed=allowed, ports=[443])
    with pytest.raises(Refused, match="'127.0.0.1' is not in OUTSIDE_BOT_ALLOWED_HOSTS"):
        HttpBot("http://127.0.0.1:443/", allowed=allowed, ports=[443])
    with pytest.raises(Refused, match="'lab:x' in OUTSIDE_BOT_ALLOWED_HOSTS is not host"):
        HttpBot("http://lab/", allowed={"lab:x"})


def test_the_ports_come_from_the_settings(settings):
    assert settings.OUTSIDE_BOT_ALLOWED_PORTS == list(DEFAULT_PORTS)  # one default, two places
    settings.OUTSIDE_BOT_ALLOWED_HOSTS = ["127.0.0.1"]
    with pytest.raises(Refused, match=r"port 5432 is not allowed .* 80, 443, 8000, 8080, 8443"):
        HttpBot("http://127.0.0.1:5432/")

    settings.OUTSIDE_BOT_ALLOWED_PORTS = [5432]
    assert HttpBot("http://127.0.0.1:5432/").target.port == 5432
    with pytest.raises(Refused, match="port 80 is not allowed"):
        HttpBot("http://127.0.0.1/")


@pytest.mark.django_db
@pytest.mark.parametrize(("url", "message"), [
    ("http://localhost:8000/bot", "host 'localhost' is not in OUTSIDE_BOT_ALLOWED_HOSTS and "
                                  "resolves to a loopback address"),
    ("http://0x7f.1/bot", "host '0x7f.1' is not in OUTSIDE_BOT_ALLOWED_HOSTS and "
                          "resolves to a loopback address"),
    ("http://127.0.0.1:5432/bot", "port 5432 is not allowed for outside bots"),
])
def test_registration_refuses_what_the_policy_refuses(settings, url, message):
    from outside_bots.errors import OutsideBotError
    from outside_bots.models import OutsideBot

    settings.OUTSIDE_BOT_ALLOWED_HOSTS = ["127.0.0.1"]

    with pytest.raises(OutsideBotError) as refused:
        outside_bots.outside_bot_create(name="sneaky", url=url)

    assert str(refused.value).startswith("url: ") and message in str(refused.value)
    assert not OutsideBot.objects.exists()


# At call time, against real servers on 127.0.0.1


@pytest.fixture
def server():
    s = Server()
    yield s
    s.close()


def test_the_connection_goes_to_the_checked_address_with_the_original_host_name(server):
    resolver = answers(["127.0.0.1"])
    bot = HttpBot(f"http://bot.test:{server.port}/bot", allowed={f"bot.test:{server.port}"},
                  resolver=resolver)

    assert bot.exchange_json(REQUEST) == bot.exchange_json(REQUEST) == {"choice": 0}

    assert len(server.requests) == 2
    assert server.hosts == [f"bot.test:{server.port}"] * 2
    assert resolver.calls == [("bot.test", server.port)]  # once: no window for rebinding


def test_a_name_that_resolves_public_then_private_is_never_called_on_the_private_one(server):
    resolver = answers(["93.184.215.14"], ["127.0.0.1"])
    url = f"http://rebind.example:{server.port}/bot"

    bot = HttpBot(url, allowed=set(), ports=[server.port], resolver=resolver, timeout_ms=300)
    with pytest.raises(BotFault):  # sent to the public address checked, nowhere near us
        bot.exchange_json(REQUEST)
    assert server.requests == [] and len(resolver.calls) == 1
    with pytest.raises(Refused, match="resolves to a loopback address"):
        HttpBot(url, allowed=set(), ports=[server.port], resolver=resolver)  # the next game

    assert server.requests == []


def _read_request(conn):
    """The whole request, headers and body: closing with unread bytes would reset the
    connection and could lose the answer on its way."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(65536)
        if not chunk:
            return data
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = next((int(line.split(b":", 1)[1]) for line in head.split(b"\r\n")
                   if line.lower().startswith(b"content-length:")), 0)
    while len(body) < length:
        chunk = conn.recv(65536)
        if not chunk:
            break
        body += chunk
    return head + b"\r\n\r\n" + body


class RawServer:
    """A TCP server on 127.0.0.1 whose one connection a test's function answers byte by byte;
    ``hung_up`` says whether the client hung up before the function was done."""

    def __init__(self, answer, tls=None):
        self.tls = tls
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.allowed = f"127.0.0.1:{self.port}"
        self.hung_up = False
        self.thread = threading.Thread(target=self._serve, args=(answer,), daemon=True)
        self.thread.start()

    def _serve(self, answer):
        conn, _ = self.listener.accept()
        try:
            if self.tls:
                conn = self.tls.wrap_socket(conn, server_side=True)
            _read_request(conn)
            answer(conn)
        except OSError:
            self.hung_up = True
        finally:
            conn.close()

    def close(self):
        self.thread.join(10)
        self.listener.close()


@pytest.fixture
def raw():
    servers = []

    def make(answer, tls=None):
        servers.append(RawServer(answer, tls))
        return servers[-1]

    yield make
    for s in servers:
        s.close()


def _exchange(server, **limits):
    bot = HttpBot(f"http://127.0.0.1:{server.port}/bot", allowed={server.allowed}, **limits)
    with pytest.raises(BotFault) as fault:
        bot.exchange_json(REQUEST)
    server.thread.join(10)
    return fault.value


def test_a_redirect_is_not_followed(server, raw):
    target_url = server.url

    def redirect(conn):
        conn.sendall(f"HTTP/1.1 302 Found\r\nLocation: {target_url}\r\n"
                     "Content-Length: 0\r\n\r\n".encode())

    fault = _exchange(raw(redirect))

    assert (fault.kind, fault.message) == ("error", "HTTP status 302 (redirects are not followed)")
    assert server.requests == []


def test_an_answer_declared_oversized_is_refused_without_reading_it(raw):
    def huge(conn):
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 1000000000\r\n\r\n" + b"{" * 100)
        conn.recv(1)  # until the client hangs up

    fault = _exchange(raw(huge), max_bytes=1000, timeout_ms=2000)

    assert (fault.kind, fault.message) == (
        "oversized", "the answer is over 1000 bytes (Content-Length 1000000000)")


def test_an_endless_answer_is_cut_at_the_size_bound(raw):
    def endless(conn):
        conn.sendall(b"HTTP/1.1 200 OK\r\n\r\n")
        for _ in range(10_000):  # 160 MB, unless the client hangs up
            conn.sendall(b" " * 16384)

    server = raw(endless)
    fault = _exchange(server, max_bytes=50_000, timeout_ms=5000)

    assert (fault.kind, fault.message) == ("oversized", "the answer is over 50000 bytes")
    assert server.hung_up


def test_an_answer_dripped_slowly_is_cut_at_the_deadline(raw):
    def drip(conn):
        conn.sendall(b"HTTP/1.1 200 OK\r\nX-Drip: ")
        for _ in range(60):  # each byte well within the socket timeout, 3 s in all
            threading.Event().wait(0.05)
            conn.sendall(b"x")
        body = json.dumps({"choice": 0}).encode()
        conn.sendall(b"\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body))

    server = raw(drip)
    fault = _exchange(server, timeout_ms=300)

    assert (fault.kind, fault.message) == ("timeout", "no answer within 300 ms")
    assert server.hung_up  # the bot stopped listening, it did not wait the drip out


def _answer_choice_0(conn):
    body = json.dumps({"choice": 0}).encode()
    conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body))


@pytest.fixture(scope="module")
def certificate(tmp_path_factory):
    """A self-signed certificate for the name bot.test."""
    folder = tmp_path_factory.mktemp("tls")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
                    "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1", "-subj", "/CN=bot.test",
                    "-addext", "subjectAltName=DNS:bot.test", "-keyout", key, "-out", cert],
                   check=True, capture_output=True)
    return cert, key


def test_https_goes_to_the_checked_address_and_checks_the_certificate_for_the_name(
        raw, certificate, monkeypatch):
    cert, key = certificate
    served = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    served.load_cert_chain(cert, key)
    monkeypatch.setattr(outside, "_tls", lambda: ssl.create_default_context(cafile=cert))
    good, other = raw(_answer_choice_0, tls=served), raw(_answer_choice_0, tls=served)

    bot = HttpBot(f"https://bot.test:{good.port}/", allowed={f"bot.test:{good.port}"},
                  resolver=answers(["127.0.0.1"]))
    assert bot.exchange_json(REQUEST) == {"choice": 0}
    impostor = HttpBot(f"https://other.test:{other.port}/", allowed={f"other.test:{other.port}"},
                       resolver=answers(["127.0.0.1"]))
    with pytest.raises(BotFault) as fault:
        impostor.exchange_json(REQUEST)

    assert fault.value.kind == "error"
    assert "certificate verify failed" in fault.value.message
    assert "other.test" in fault.value.message
