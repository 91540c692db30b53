#!/bin/bash
# The Go tests (make test's first phase): every package under the race
# detector except pkg/recognition, whose own tests run without it, beside
# the others. They turn pixels in one goroutine per document: under -race
# they took 205 s against 32 s without, for nothing the detector could
# find there; the recognition API's concurrency (the bounded slots, many
# uploads at once) is tested under -race through pkg/app.
set -u
GO=${GO:-go}
pkgs=$($GO list ./... | grep -v '/pkg/recognition$') || exit 1
$GO test -race -count=1 -timeout 50m $pkgs &
raced=$!
$GO test -count=1 -timeout 20m ./pkg/recognition
plain=$?
wait "$raced"
race=$?
exit $(( race != 0 || plain != 0 ))
