"""The Redis cache backend (studyplan.rediscache) against a real Redis: run where REDIS_URL is
set (CI's PostgreSQL run starts one)."""

import os
import uuid

import pytest

from studyplan.rediscache import RedisCache

pytestmark = pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="REDIS_URL is not set")


@pytest.fixture
def cache():
    return RedisCache(os.environ["REDIS_URL"], {"KEY_PREFIX": f"test-{uuid.uuid4().hex}"})


def test_it_stores_reads_and_deletes_like_djangos(cache):
    cache.set("page", {"html": "<p>Where you stand</p>"}, 60)

    assert cache.get("page") == {"html": "<p>Where you stand</p>"}
    assert cache.get("missing", "default") == "default"
    cache.delete("page")
    assert cache.get("page") is None


def test_every_operation_reuses_one_redis_client(cache):
    client = cache._cache

    first = client.get_client("a")
    cache.set("a", 1, 60)
    cache.get("a")

    assert client.get_client("b", write=True) is first
    assert first.connection_pool is client._get_connection_pool(True)
