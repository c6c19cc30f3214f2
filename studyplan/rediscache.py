"""Django's RedisCache, keeping one redis-py client per connection pool.

Django's client builds a new ``redis.Redis`` around its pool for every cache operation, and
building one (its retry policy, its response callbacks) cost as much as the round trip to Redis
itself: 0.15 ms of each operation, and a learner's page makes two (the session and the page).
A redis-py client is safe to share between threads (each command borrows a connection from the
pool), so one per pool is kept and reused.
"""

from typing import Any

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient as DjangoRedisCacheClient


class RedisCacheClient(DjangoRedisCacheClient):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        this: Any = self  # django-stubs leaves the client's private helpers out
        index = this._get_connection_pool_index(write)
        client = self._clients.get(index)
        if client is None:
            client = self._clients[index] = this._client(
                connection_pool=this._get_connection_pool(write)
            )
        return client


class RedisCache(DjangoRedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = RedisCacheClient
