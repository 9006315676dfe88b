GO      ?= go
BIN     := bin/luainterp
EXAMPLE := testdata/examples
# Stamped into the binary, shown by `luainterp version`.
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo unknown)
COMMIT  ?= $(shell git rev-parse HEAD 2>/dev/null || echo unknown)
LDFLAGS := -X main.version=$(VERSION) -X main.commit=$(COMMIT)

.PHONY: build install run test bench bench-overload bench-serve bench-controller bench-admission bench-fleet bench-shards lint fmt envtest image playground-screenshot

# The kube-apiserver and etcd of the integration tests (internal/testenv),
# built by hack/envtest-binaries.sh; `make test` uses them when they are there.
ENVTEST_DIR ?= $(or $(LUAINTERP_ENVTEST_DIR),$(HOME)/.cache/luainterp/envtest/1.37.2)

build:
	$(GO) build -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/luainterp

# Into $(go env GOBIN), else $(go env GOPATH)/bin, stamped as build is.
install:
	$(GO) install -ldflags '$(LDFLAGS)' ./cmd/luainterp

# The container image of Dockerfile: a static binary, stamped as build is.
IMAGE  ?= luainterp:$(VERSION)
DOCKER ?= docker
image:
	$(DOCKER) build --build-arg VERSION=$(VERSION) --build-arg COMMIT=$(COMMIT) -t $(IMAGE) .

# The main job on the bundled example: templates propagated to Works.
DEMO  := $(EXAMPLE)/propagate
WORKS := bin/works
run: build
	@rm -rf $(WORKS)
	@echo "== A Deployment divided over three clusters, with a ClusterOverridePolicy and an OverridePolicy:"
	$(BIN) propagate --template $(DEMO)/deployment.yaml --binding $(DEMO)/deployment-binding.yaml \
		--clusters $(DEMO)/clusters.yaml --policies $(DEMO)/policies.yaml --out $(WORKS)
	@echo "== A Job whose completions are divided:"
	$(BIN) propagate --template $(DEMO)/job.yaml --binding $(DEMO)/job-binding.yaml \
		--clusters $(DEMO)/clusters.yaml --policies $(DEMO)/policies.yaml --out $(WORKS)
	@echo "== A CloneSet revised by a Lua customization:"
	$(BIN) propagate --template $(DEMO)/cloneset.yaml --binding $(DEMO)/cloneset-binding.yaml \
		--clusters $(DEMO)/clusters.yaml --policies $(DEMO)/policies.yaml \
		--customizations $(DEMO)/cloneset-customization.yaml --out $(WORKS)
	@echo "== The Work for eu-fra ($(WORKS)/karmada-es-eu-fra/storefront-d9b447676.yaml):"
	@cat $(WORKS)/karmada-es-eu-fra/storefront-d9b447676.yaml

test: lint
	@if [ -x "$(ENVTEST_DIR)/kube-apiserver" ] && [ -x "$(ENVTEST_DIR)/etcd" ]; then \
		echo "integration tests: kube-apiserver and etcd from $(ENVTEST_DIR)"; \
	else \
		echo "integration tests: no binaries in $(ENVTEST_DIR) (make envtest builds them); they skip"; \
	fi
	KUBEBUILDER_ASSETS=$${KUBEBUILDER_ASSETS:-$(ENVTEST_DIR)} $(GO) test -race -timeout 30m ./...

envtest:
	LUAINTERP_ENVTEST_DIR=$(ENVTEST_DIR) bash hack/envtest-binaries.sh

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

# `luainterp serve` beside a bare net/http server decoding the same request,
# over TLS on 127.0.0.1 at concurrency 1, 8 and 32: rates, p99s, ratios.
bench-serve: build
	$(GO) run ./hack/benchserve -bin $(BIN)

# A well-behaved kind's latency with a hostile hook looping beside it:
# baseline, under attack without protection, under attack with a bulkhead,
# and with a bulkhead and a hook breaker; in process (interpreter/bulkhead:
# 2000 friendly calls per case, but 100 for the unprotected one, whose
# calls each wait for a Lua state behind the hostile calls), then over HTTP
# against serve on 127.0.0.1 (cmd/luainterp: a built-in and a Lua kind,
# about a minute).
bench-overload:
	$(GO) test -run '^$$' -bench 'UnderAttack/baseline' -benchtime 2000x ./interpreter/bulkhead/
	$(GO) test -run '^$$' -bench 'UnderAttack/attacked/unprotected' -benchtime 100x ./interpreter/bulkhead/
	$(GO) test -run '^$$' -bench 'UnderAttack/attacked/bulkhead' -benchtime 2000x ./interpreter/bulkhead/
	$(GO) test -run '^$$' -bench ServeUnderAttack -benchtime 1x ./cmd/luainterp/

# The binding controller's throughput against the test API server: 1,000
# Deployment bindings over 10 clusters, created (10,000 Works) and then
# reconciled again with nothing to change.
bench-controller:
	KUBEBUILDER_ASSETS=$${KUBEBUILDER_ASSETS:-$(ENVTEST_DIR)} $(GO) test -run '^$$' -bench BenchmarkController -benchtime 1x -timeout 30m ./kube/controller/

# serve's admission path against the test API server (docs/admission.md):
# a tenant's InterpretHealth rate alone and beside AdmissionReviews whose
# script loops, and serve's RSS after 400 and 4,000 refused reviews of
# 1,000 functions (about 15 minutes). BEFORE=path/to/luainterp measures
# that build instead (say, main's: go build -o /tmp/before ./cmd/luainterp).
bench-admission:
	KUBEBUILDER_ASSETS=$${KUBEBUILDER_ASSETS:-$(ENVTEST_DIR)} LUAINTERP_TEST_BIN=$(BEFORE) $(GO) test -run '^$$' -bench BenchmarkAdmission -benchtime 1x -timeout 30m ./cmd/luainterp/

# The controller at fleet size against the test API server (docs/scale.md):
# 1,000 bindings over 10 clusters, then 5,000 over 20 (100,000 Works), each
# size with an API server of its own: first-pass rate and requests, live
# heap and RSS per Work and per binding, restart to quiet with its writes,
# LISTs and GETs. First, BenchmarkWorkCache: the Works' cache alone at
# 5,000×20, whole and trimmed, without an API server.
FLEET_SIZES ?= 1000x10 5000x20
bench-fleet:
	$(GO) test -run '^$$' -bench BenchmarkWorkCache -benchtime 1x ./kube/controller/
	@for size in $(FLEET_SIZES); do \
		KUBEBUILDER_ASSETS=$${KUBEBUILDER_ASSETS:-$(ENVTEST_DIR)} $(GO) test -run '^$$' -bench "BenchmarkFleet/$$size\$$" \
			-benchtime 1x -timeout 90m ./kube/controller/ || exit 1; \
	done

# Sharded replicas against the test API server (docs/sharding.md): 2,000
# bindings over 10 clusters run by 1, 2 and 4 `luainterp controller
# --shards 8` processes, each replica's live heap and the bytes the API
# server sent it, without the ShardedListAndWatch gate and then with it
# (an API server each): about 30 minutes on 2 cores.
# SHARDS_BENCH_SIZE=500x4 is a quick run; SHARDS_BENCH_HEAPPROFILE=folder
# keeps each replica's heap profile.
bench-shards:
	KUBEBUILDER_ASSETS=$${KUBEBUILDER_ASSETS:-$(ENVTEST_DIR)} $(GO) test -run '^$$' -bench BenchmarkControllerShards \
		-benchtime 1x -timeout 120m ./cmd/luainterp/

# docs/playground.png: the playground's page in headless Chromium (apt-get
# install chromium), its test cases run, written by its browser test.
playground-screenshot:
	LUAINTERP_REQUIRE_BROWSER=1 LUAINTERP_PLAYGROUND_SCREENSHOT=$(CURDIR)/docs/playground.png \
		$(GO) test -count=1 -run '^TestPlaygroundInBrowser$$' ./cmd/luainterp/internal/playground/

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt: not formatted:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...

fmt:
	gofmt -w $$(git ls-files '*.go')
