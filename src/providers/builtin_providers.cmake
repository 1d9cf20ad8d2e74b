# The one list of docket's built-in storage providers, in the order the registry
# tries them and lists their URLs: one line each, the provider's folder under
# src/providers/ and, for a provider that can be left out, the CMake option that
# builds it and its help text (see docket_provider() in CMakeLists.txt and
# docs/providers.md). Adding a provider adds its line here and nothing else outside
# its folder.
docket_provider(memory)
docket_provider(sqlite DOCKET_PROVIDER_SQLITE "Build the SQLite provider (docket::sqlite)")
docket_provider(postgres DOCKET_PROVIDER_POSTGRES "Build the PostgreSQL provider (docket::postgres, libpq)")
docket_provider(dynamodb DOCKET_PROVIDER_DYNAMODB "Build the DynamoDB provider (docket::dynamodb, libcurl, OpenSSL)")
docket_provider(firestore DOCKET_PROVIDER_FIRESTORE "Build the Firestore provider (docket::firestore, libcurl)")
docket_provider(redis DOCKET_PROVIDER_REDIS "Build the Redis provider (docket::redis, hiredis)")
docket_provider(cosmos DOCKET_PROVIDER_COSMOS "Build the Cosmos DB provider (docket::cosmos, libcurl, OpenSSL)")
