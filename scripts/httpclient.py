"""A tiny cookie-keeping HTTP client for the load and benchmark scripts (loopback only)."""

import http.client
import re
import urllib.parse
from dataclasses import dataclass, field

CSRF_INPUT = re.compile(rb'name="csrfmiddlewaretoken" value="([^"]+)"')


@dataclass
class Response:
    status: int
    body: bytes
    headers: dict[str, str]


@dataclass
class Session:
    host: str
    port: int
    cookies: dict[str, str] = field(default_factory=dict)
    _conn: http.client.HTTPConnection | None = None

    def _connection(self) -> http.client.HTTPConnection:
        if self._conn is None:
            self._conn = http.client.HTTPConnection(self.host, self.port, timeout=60)
        return self._conn

    def request(
        self, method: str, path: str, form: dict | None = None, headers: dict | None = None
    ) -> Response:
        all_headers = {"Host": f"{self.host}:{self.port}", **(headers or {})}
        if self.cookies:
            all_headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if form is not None:
            body = urllib.parse.urlencode(form, doseq=True)
            all_headers["Content-Type"] = "application/x-www-form-urlencoded"
        if method == "POST" and "csrftoken" in self.cookies:
            all_headers.setdefault("X-CSRFToken", self.cookies["csrftoken"])
            all_headers.setdefault("Referer", f"http://{self.host}:{self.port}{path}")
        for attempt in range(2):
            conn = self._connection()
            try:
                conn.request(method, path, body=body, headers=all_headers)
                raw = conn.getresponse()
                data = raw.read()
                break
            except (ConnectionError, http.client.HTTPException):
                # gunicorn closes idle keep-alive connections: reconnect once.
                self.close()
                if attempt:
                    raise
        for name, value in raw.getheaders():
            if name.lower() == "set-cookie":
                key, _, rest = value.partition("=")
                self.cookies[key.strip()] = rest.split(";", 1)[0]
        return Response(raw.status, data, {k.lower(): v for k, v in raw.getheaders()})

    def get(self, path: str, **kwargs) -> Response:
        return self.request("GET", path, **kwargs)

    def post(self, path: str, form: dict, **kwargs) -> Response:
        return self.request("POST", path, form=form, **kwargs)

    def csrf_from(self, path: str) -> str:
        match = CSRF_INPUT.search(self.get(path).body)
        if not match:
            raise RuntimeError(f"no CSRF token on {path}")
        return match.group(1).decode()

    def sign_up(self, username: str, password: str) -> Response:
        token = self.csrf_from("/accounts/signup/")
        return self.post(
            "/accounts/signup/",
            {
                "csrfmiddlewaretoken": token,
                "username": username,
                "password1": password,
                "password2": password,
            },
        )

    def log_in(self, username: str, password: str) -> Response:
        token = self.csrf_from("/accounts/login/")
        return self.post(
            "/accounts/login/",
            {"csrfmiddlewaretoken": token, "login": username, "password": password},
        )

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None
