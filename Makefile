# Voyage build, run and test. `make run` and `make test` work on a fresh
# machine: they install the npm packages, build the islands, generate templ
# code and (for the browser tests) install Debian's chromium when missing.

GO        ?= go
BIN       := bin/voyage
FAKEPAY   := bin/fakepay
DB        ?= ./var/voyage.db
ADDR      ?= 127.0.0.1:8080
VERSION   ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS   := -X github.com/voyage/voyage/pkg/app.Version=$(VERSION)
CHROMIUM  ?= /usr/bin/chromium

# -trimpath keeps the checkout's directory out of what Go compiles, and so
# out of its build cache's keys: a fresh clone elsewhere (CI's) reuses what
# an earlier build compiled. Compiling and linking every test binary under
# -race took 198 s in a new directory and 88 s in a warm one; with
# -trimpath a new directory took 97 s.
export GOFLAGS := -trimpath $(GOFLAGS)

.PHONY: all run build deps islands generate ocr-optional check-generated vet test test-fast test-go test-islands test-browser test-chaos-short run-test-go run-test-islands run-test-browser run-test-chaos-short chaos cluster haproxy bench chromium clean docs fuzz ocr stripe-mock fakepay

all: build

node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund

deps: node_modules/.package-lock.json

islands: deps
	npm run --silent build

generate:
	$(GO) tool templ generate -path templates >/dev/null

# Fails when the committed *_templ.go files differ from what the .templ
# sources generate (the files are regenerated either way).
check-generated:
	@before=$$(find templates -name '*_templ.go' -exec md5sum {} + | sort); \
	$(GO) tool templ generate -path templates >/dev/null; \
	after=$$(find templates -name '*_templ.go' -exec md5sum {} + | sort); \
	if [ "$$before" != "$$after" ]; then echo "generated templ code was stale: regenerated it, commit the *_templ.go files"; exit 1; fi

build: islands generate
	$(GO) build -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/voyage

run: build ocr-optional
	./$(BIN) migrate up --db $(DB)
	./$(BIN) demo seed --db $(DB)
	@echo
	@echo "  Voyage portal:  http://$(ADDR)/"
	@echo "  Agency API:     http://$(ADDR)/openapi.json"
	@echo "  Database:       $(DB) (embedded SQLite)"
	@echo
	@# One instance, no load balancer to drain from: Ctrl-C stops it at once.
	VOYAGE_PAYMENT_TEST_GATEWAY=true VOYAGE_HTTP_DRAIN_DELAY=0s ./$(BIN) serve --db $(DB) --addr $(ADDR) --no-migrate

vet: generate
	$(GO) vet ./...

# make test runs its phases one after the other, each printing its time.
# Side by side (make -j3 over the Go, islands' and browser tests) they took
# as long in all (1345 and 1365 s, against 469 and 885 s in turn): every
# phase keeps both cores busy.
test: islands check-generated vet build fakepay chromium ocr stripe-mock haproxy
	@$(MAKE) --no-print-directory run-test-go run-test-islands run-test-browser run-test-chaos-short

# timed runs its second argument as a shell command and says how long it
# took under its first.
timed = start=$$(date +%s); $(2); rc=$$?; echo "make test: $(1) took $$(( $$(date +%s) - start )) s (exit $$rc)"; exit $$rc

# Store tests run on SQLite and PostgreSQL (VOYAGE_TEST_POSTGRES_URL, default
# the local server); under CI=true an unreachable PostgreSQL fails them. Each
# test copies a database migrated once (storetest) and most run in parallel.
# scripts/test-go.sh: under -race, but for pkg/recognition (see there).
GO_TESTS = GO=$(GO) bash scripts/test-go.sh
test-go: ocr stripe-mock
	$(GO_TESTS)
run-test-go:
	@$(call timed,Go tests,$(GO_TESTS))

# The inner loop: the Go tests without -race and without the browser, on
# both engines all the same.
test-fast: generate ocr stripe-mock
	$(GO) test -count=1 -timeout 20m ./...

ISLAND_TESTS = npx tsc --noEmit -p . && npx vitest run
test-islands: deps
	$(ISLAND_TESTS)
run-test-islands:
	@$(call timed,islands' tests,$(ISLAND_TESTS))

chromium:
	@if ! [ -x "$(CHROMIUM)" ]; then \
		echo "installing Debian's chromium for the browser tests"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-cjk >/dev/null; \
	fi

# The Stripe channel's tests run against stripe-mock, Stripe's own mock of
# its API, started by the tests as a process (pkg/payment/stripe).
STRIPE_MOCK_VERSION = v0.203.0
stripe-mock:
	@test -x "$$($(GO) env GOPATH)/bin/stripe-mock" || $(GO) install github.com/stripe/stripe-mock@$(STRIPE_MOCK_VERSION)

# Document recognition runs Debian's tesseract-ocr (English model); its tests
# render documents in the OCR-B font of fonts-ocr-b and PDF pages with
# poppler-utils' pdftoppm.
ocr:
	@if ! command -v tesseract >/dev/null || ! command -v pdftoppm >/dev/null || ! [ -f /usr/share/fonts/opentype/ocr-b/OCRB.otf ]; then \
		echo "installing Debian's tesseract-ocr, fonts-ocr-b and poppler-utils for document recognition"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tesseract-ocr tesseract-ocr-eng fonts-ocr-b poppler-utils >/dev/null; \
	fi

# make run needs no recognition to serve the portal: it installs tesseract
# only where it can (root and apt-get) and otherwise says what is off,
# rather than failing on another system or without root.
ocr-optional:
	@if ! command -v tesseract >/dev/null; then \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
			$(MAKE) --no-print-directory ocr || echo "note: tesseract-ocr could not be installed: the portal runs; reading passports from a scan is off"; \
		else \
			echo "note: tesseract-ocr is not installed: the portal runs; reading passports from a scan is off until it is on the PATH"; \
		fi; \
	fi

# fakepay is Alipay's fake gateway as a process (e2e/fakepay): the browser
# test of a channel payment points the server at it. A test tool, never
# part of bin/voyage.
fakepay:
	$(GO) build -o $(FAKEPAY) ./e2e/fakepay

BROWSER_TESTS = VOYAGE_BIN=$(CURDIR)/$(BIN) VOYAGE_FAKEPAY_BIN=$(CURDIR)/$(FAKEPAY) CHROMIUM=$(CHROMIUM) node --test --test-concurrency=2 e2e/
test-browser: build fakepay chromium ocr
	$(BROWSER_TESTS)
run-test-browser:
	@$(call timed,browser tests,$(BROWSER_TESTS))

# Chaos: three `voyage serve` instances on one fresh PostgreSQL database
# (VOYAGE_TEST_POSTGRES_URL's server) behind HAProxy (checking /readyz) under
# booking, payment, refund and top-up load, one killed with SIGKILL and
# restarted every 20 s, then all three restarted one at a time (SIGTERM,
# drain, start, back in HAProxy) under the same load; then the requests
# lost, the ledger, tickets, payments and idempotency keys are checked and
# counted.
# CHAOS_FLAGS tunes it, e.g. CHAOS_FLAGS=-chaos.duration=10m.
CHAOS_FLAGS ?=
chaos: build haproxy
	VOYAGE_BIN=$(CURDIR)/$(BIN) $(GO) test -tags chaos -count=1 -timeout 30m -v -run TestChaos ./e2e/chaos $(CHAOS_FLAGS)

# The short run for CI: 25 s of load with one kill, then the rolling restart
# (about 15 s); it then waits until every paid order is settled (at most 2
# minutes after the kill, usually far less).
CHAOS_SHORT = VOYAGE_BIN=$(CURDIR)/$(BIN) $(GO) test -tags chaos -count=1 -timeout 8m -run TestChaos ./e2e/chaos \
		-chaos.duration=25s -chaos.workers=3
test-chaos-short: build haproxy
	$(CHAOS_SHORT)
run-test-chaos-short:
	@$(call timed,chaos,$(CHAOS_SHORT))

# HAProxy, Debian's, for `make cluster` and the chaos test's load balancer.
haproxy:
	@if ! command -v haproxy >/dev/null; then \
		echo "installing Debian's haproxy for the cluster and the chaos test"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq haproxy >/dev/null; \
	fi

# N instances (default 3) on one PostgreSQL database behind HAProxy, search
# sessions in Redis: scripts/cluster.sh says what it does and its settings.
N ?= 3
cluster: build haproxy
	N=$(N) VOYAGE_BIN=$(CURDIR)/$(BIN) scripts/cluster.sh

# The command reference in docs/cli (a test fails when it is stale).
docs:
	$(GO) run ./cmd/voyage docs --dir docs/cli

# Fuzz targets as package:FuzzName, each run for FUZZTIME (default 10m):
# `make fuzz FUZZTIME=90s`. Their seeds are committed in each package's
# testdata/fuzz; a crasher is written there too, to be kept as a seed.
FUZZTIME ?= 10m
FUZZ_TARGETS := ./pkg/money:FuzzParse ./pkg/pnr:FuzzParse ./pkg/api:FuzzPostSale ./pkg/api:FuzzDecode ./pkg/group:FuzzParseList ./pkg/web:FuzzAdminReadLogo

fuzz: generate
	@set -e; for t in $(FUZZ_TARGETS); do \
		pkg=$${t%%:*}; name=$${t##*:}; \
		echo "fuzz $$name in $$pkg for $(FUZZTIME)"; \
		$(GO) test -run '^$$' -fuzz "^$$name$$" -fuzztime $(FUZZTIME) $$pkg; \
	done

bench: generate
	$(GO) test -run '^$$' -bench . -benchmem -count=1 ./...

clean:
	rm -rf bin node_modules pkg/web/static/dist/assets pkg/web/static/dist/manifest.json
