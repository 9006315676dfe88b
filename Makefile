GO      ?= go
BIN     := bin/luainterp
EXAMPLE := testdata/examples

.PHONY: build run test bench lint fmt

build:
	$(GO) build -o $(BIN) ./cmd/luainterp

# The main job on the bundled example.
run: build
	$(BIN) interpret -f $(EXAMPLE)/customization.yaml --operation InterpretReplica --observed-file $(EXAMPLE)/workload.yaml

test: lint
	$(GO) test -race ./...

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt: not formatted:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...

fmt:
	gofmt -w $$(git ls-files '*.go')
