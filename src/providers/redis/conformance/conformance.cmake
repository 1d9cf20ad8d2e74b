# The Redis provider's conformance fixtures, one file per suite it runs
# (docket_conformance(), tests/conformance/provider_fixtures.cmake). Test code only.
# Each fixture works under a key prefix of its own on the Redis server of
# DOCKET_TEST_REDIS_URL (docket_test_redis).
docket_conformance(inbox redis_inbox_fixture.cc LINK docket_test_redis)
docket_conformance(checkpoint redis_checkpoint_fixture.cc LINK docket_test_redis)
docket_conformance(claim redis_claim_fixture.cc LINK docket_test_redis)
docket_conformance(outbox redis_outbox_fixture.cc LINK docket_test_redis)
docket_conformance(eventsourcing redis_eventsourcing_fixture.cc LINK docket_test_redis)
# A scratch database for the tool's tests on every provider that offers what they need
# (tests/tool/scratch_stores.h): Redis offers every store, so all of them, `docket demo`
# and `docket chaos` included (its order services: ../demo/).
docket_conformance(tool redis_scratch_database.cc LINK docket_test_redis)
# `docket bench inbox`, `claim`, `events` and `outbox` on the Redis test server, beside
# the raw baselines of ../bench/.
docket_conformance(tool redis_bench_test.cc LINK docket_test_redis)
