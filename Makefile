GO      ?= go
BIN     := bin/luainterp
EXAMPLE := testdata/examples
# Stamped into the binary, shown by `luainterp version`.
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo unknown)
COMMIT  ?= $(shell git rev-parse HEAD 2>/dev/null || echo unknown)
LDFLAGS := -X main.version=$(VERSION) -X main.commit=$(COMMIT)

.PHONY: build install run test bench bench-overload bench-serve bench-controller lint fmt envtest image

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

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt: not formatted:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...

fmt:
	gofmt -w $$(git ls-files '*.go')
