# flyr: `make demo` and `make test` work on a fresh Debian machine as root.
SHELL := /bin/bash
export PATH := $(PATH):/opt/swift/usr/bin
SWIFT ?= swift
SAMPLE := samples/queens-village
OUT := out

.PHONY: demo test bench deps build release clean

deps:
	@scripts/install-deps.sh build

release: deps
	$(SWIFT) build -c release --product flyr

demo: release
	@mkdir -p $(OUT)
	.build/release/flyr link --buildings $(SAMPLE)/buildings.geojson \
	  --addresses $(SAMPLE)/addresses-streetside.geojsonseq --segments $(SAMPLE)/segments.geojson \
	  -o $(OUT)/links.csv --force --check $(SAMPLE)/truth.csv
	.build/release/flyr provision --name "Queens Village sample" --buildings $(SAMPLE)/buildings.geojson \
	  --addresses $(SAMPLE)/addresses-streetside.geojsonseq --segments $(SAMPLE)/segments.geojson \
	  -o $(OUT)/campaign.gpkg --force
	.build/release/flyr render $(OUT)/campaign.gpkg -o $(OUT)/map.png --force
	.build/release/flyr render $(OUT)/campaign.gpkg -o $(OUT)/map.svg --force
	@echo "link table: $(OUT)/links.csv; campaign: $(OUT)/campaign.gpkg; map: $(OUT)/map.png, $(OUT)/map.svg"

test:
	@scripts/install-deps.sh test
	$(SWIFT) build --build-tests
	scripts/with-postgres.sh $(SWIFT) test --skip-build

bench: release
	@scripts/install-deps.sh bench
	python3 bench/bench.py

clean:
	rm -rf .build $(OUT)
