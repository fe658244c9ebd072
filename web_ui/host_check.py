"""Which Host a request may name: the Pi's own addresses, its names, `*.local` and localhost.

A DNS-rebinding page (a site whose name the attacker points at the Pi once the page is loaded)
reaches the Pi from a player's own browser as a same-origin request, so the Origin and CSRF
checks pass; its Host header, though, is the attacker's name. Only names the Pi answers to are
served: an address of one of its interfaces (told by binding a socket to it, which the kernel
allows for local addresses only), `localhost`, an mDNS `*.local` name (no public DNS name can
end so), the machine's host name and the names in the configuration.
"""
from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterable
from urllib.parse import urlsplit


class HostCheck:
    """Which Host headers this Pi answers to: its names, localhost and its addresses, so a page of another site
    cannot reach the table through a rebound DNS name."""
    def __init__(self, names: Iterable[str] = ()):
        self.names = {n.lower().rstrip(".") for n in names if n} | {"localhost", socket.gethostname().lower()}

    def allows(self, host: str) -> bool:
        """Whether the Host header `host` (a name or an address, with or without a port) is this Pi's."""
        try:
            name = urlsplit("//" + host).hostname
        except ValueError:
            return False
        if not name:
            return False
        name = name.rstrip(".")
        if name in self.names or name.endswith(".local") or name.endswith(".localhost"):
            return True
        try:
            address = ipaddress.ip_address(name)
        except ValueError:
            return False
        if address.is_loopback:
            return True
        if address.is_multicast or address.is_unspecified:
            return False
        return self._is_local(address)

    @staticmethod
    def _is_local(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
        """Asked of the kernel at each request (a few microseconds): the Pi's addresses may change."""
        family = socket.AF_INET if address.version == 4 else socket.AF_INET6
        try:
            with socket.socket(family, socket.SOCK_DGRAM) as s:
                s.bind((str(address), 0))
        except OSError:
            return False
        return True
