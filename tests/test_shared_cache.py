"""The shared cache (allauth's rate-limit counters) is Django's own Redis backend, checked against
a real Redis: run where REDIS_URL is set (CI's PostgreSQL run starts one)."""

import os
import uuid

import pytest
from django.core.cache.backends.redis import RedisCache

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


def test_the_shared_cache_is_djangos_own_redis_backend(settings):
    assert settings.CACHES["default"]["BACKEND"] == ("django.core.cache.backends.redis.RedisCache")
