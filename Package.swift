// swift-tools-version:6.0
import Foundation
import PackageDescription

let package = Package(
    name: "flyr",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "Geo", targets: ["Geo"]),
        .library(name: "Render", targets: ["Render"]),
        .library(name: "Campaign", targets: ["Campaign"]),
        .executable(name: "flyr", targets: ["flyr"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.21.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.9.0"..<"6.0.0"),
    ],
    targets: [
        .systemLibrary(name: "CGEOS", pkgConfig: "geos", providers: [.apt(["libgeos-dev"])]),
        .systemLibrary(name: "CProj", pkgConfig: "proj", providers: [.apt(["libproj-dev"])]),
        .systemLibrary(name: "CCairo", pkgConfig: "pangocairo", providers: [.apt(["libcairo2-dev", "libpango1.0-dev"])]),
        .systemLibrary(name: "CQREncode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .target(name: "Geo", dependencies: ["CGEOS", "CProj"]),
        .target(name: "Render", dependencies: ["Geo", "CCairo", "CQREncode", "CZlib"]),
        .target(name: "Campaign", dependencies: [
            "Geo", .product(name: "GRDB", package: "GRDB.swift"), .product(name: "GRDBSQLite", package: "GRDB.swift"),
            .product(name: "PostgresNIO", package: "postgres-nio"), .product(name: "Crypto", package: "swift-crypto"),
        ]),
        .executableTarget(
            name: "flyr",
            dependencies: [
                "Geo", "Render", "Campaign",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .testTarget(name: "GeoTests", dependencies: ["Geo"]),
        .testTarget(name: "RenderTests", dependencies: ["Render", "Geo"], exclude: ["Golden"]),
        .testTarget(name: "CampaignTests", dependencies: ["Campaign"]),
        .testTarget(name: "FlyrTests", dependencies: [
            "flyr", "Campaign", .product(name: "GRDB", package: "GRDB.swift"), .product(name: "PostgresNIO", package: "postgres-nio"),
        ]),
    ]
)

// libFuzzer targets, only when FLYR_FUZZ is set (`make fuzz`): they have no main of their own
// (libFuzzer's comes with -sanitize=fuzzer), so a normal build could not link them.
if ProcessInfo.processInfo.environment["FLYR_FUZZ"] != nil {
    package.targets += [
        .executableTarget(name: "FuzzGeoJSON", dependencies: ["Geo"], path: "fuzz/FuzzGeoJSON"),
        .executableTarget(name: "FuzzStyle", dependencies: ["Render"], path: "fuzz/FuzzStyle"),
    ]
}
