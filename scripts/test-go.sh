#!/bin/bash
# The Go tests (make test's first phase): every package under the race
# detector except pkg/recognition, whose own tests run without it, beside
# the others. They turn pixels in one goroutine per document: under -race
# they took 205 s against 32 s without, for nothing the detector could
# find there; the recognition API's concurrency (the bounded slots, many
# uploads at once) is tested under -race through pkg/app.
#
# -parallel 8: a test package runs up to 8 of its parallel tests at once,
# not GOMAXPROCS (2 here). pkg/app, the longest, waits more than it
# computes (each test starts an app and talks to it over HTTP and to
# PostgreSQL): at 2 its CPU time was below its wall time. At 8 it took
# 115-173 s against 203-266 s, and PostgreSQL saw at most 57 connections
# of its 100.
set -u
GO=${GO:-go}
pkgs=$($GO list ./... | grep -v '/pkg/recognition$') || exit 1
$GO test -race -count=1 -parallel 8 -timeout 50m $pkgs &
raced=$!
$GO test -count=1 -timeout 20m ./pkg/recognition
plain=$?
wait "$raced"
race=$?
exit $(( race != 0 || plain != 0 ))
