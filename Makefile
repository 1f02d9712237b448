# flyr: `make demo` and `make test` work on a fresh Debian machine as root.
SHELL := /bin/bash
export PATH := $(PATH):/opt/swift/usr/bin
SWIFT ?= swift
SAMPLE := samples/queens-village
OUT := out

.PHONY: demo test bench deps build release clean fuzz fuzz-build

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
	.build/release/flyr qr $(OUT)/campaign.gpkg -o $(OUT)/codes.zip --force
	.build/release/flyr print $(OUT)/campaign.gpkg --labels avery-5160 -o $(OUT)/labels.pdf --force
	.build/release/flyr print $(OUT)/campaign.gpkg --flyers styles/flyer-postcard.json -o $(OUT)/flyers.pdf --force
	@echo "link table: $(OUT)/links.csv; campaign: $(OUT)/campaign.gpkg; map: $(OUT)/map.png, $(OUT)/map.svg"
	@echo "print: $(OUT)/codes.zip (QR codes + manifest.csv), $(OUT)/labels.pdf (Avery 5160), $(OUT)/flyers.pdf"

test:
	@scripts/install-deps.sh test
	$(SWIFT) build --build-tests
	@# The tests' scratch files go to a directory of this run, removed at the end (pass or fail).
	tmp=$$(mktemp -d /tmp/flyr-test.XXXXXX) && trap 'rm -rf "$$tmp"' EXIT && \
	  TMPDIR="$$tmp" scripts/with-postgres.sh $(SWIFT) test --skip-build

bench: release
	@scripts/install-deps.sh bench
	python3 bench/bench.py
	sh bench/areas.sh || echo "bench: the extra areas were not made (see bench/areas.sh)"
	python3 bench/accuracy.py --calibration --derived

# libFuzzer targets (fuzz/): the GeoJSON reader and the style parser, each for FUZZ_SECONDS,
# seeded from the bad-input corpus and the styles; new inputs and crashes go to $(FUZZ_DIR).
FUZZ_SECONDS ?= 600
FUZZ_DIR := .build-fuzz
FUZZ_FLAGS := -c debug -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library --scratch-path $(FUZZ_DIR)

fuzz-build: deps
	FLYR_FUZZ=1 $(SWIFT) build $(FUZZ_FLAGS) --product FuzzGeoJSON
	FLYR_FUZZ=1 $(SWIFT) build $(FUZZ_FLAGS) --product FuzzStyle

fuzz: fuzz-build
	@mkdir -p $(FUZZ_DIR)/corpus-geojson $(FUZZ_DIR)/corpus-style $(FUZZ_DIR)/artifacts
	@mkdir -p $(FUZZ_DIR)/seeds-geojson $(FUZZ_DIR)/seeds-style
	cp Tests/Fixtures/bad/*.geojson Tests/Fixtures/bad/*.geojsonseq fuzz/seeds/geojson/* $(FUZZ_DIR)/seeds-geojson/
	cp Tests/Fixtures/bad/style-*.json styles/*.json fuzz/seeds/style/* $(FUZZ_DIR)/seeds-style/
	$(FUZZ_DIR)/debug/FuzzGeoJSON $(FUZZ_DIR)/corpus-geojson $(FUZZ_DIR)/seeds-geojson -max_len=16384 -rss_limit_mb=2048 \
	  -timeout=10 -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 -artifact_prefix=$(FUZZ_DIR)/artifacts/geojson-
	$(FUZZ_DIR)/debug/FuzzStyle $(FUZZ_DIR)/corpus-style $(FUZZ_DIR)/seeds-style -max_len=4096 -rss_limit_mb=2048 \
	  -timeout=10 -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 -artifact_prefix=$(FUZZ_DIR)/artifacts/style-

clean:
	rm -rf .build $(FUZZ_DIR) $(OUT)
