// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Origami",
    products: [
        .library(name: "Origami", targets: ["Origami"]),
        .library(name: "OrigamiRender", targets: ["OrigamiRender"]),
        .library(name: "OrigamiScene", targets: ["OrigamiScene"]),
        // Helpers for users' own tests (Swift Testing and XCTest): hit order at points, renders against references.
        .library(name: "OrigamiTesting", targets: ["OrigamiTesting"]),
        .executable(name: "origami", targets: ["origami"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        // The live viewer's server (`origami serve`). Without the ConfigurationSupport trait: no swift-configuration.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.0", traits: ["FullFoundation"]),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.0.0"),
        // `make docs`: `swift package generate-documentation` (DocC) for the public API; no code of it is linked.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // Headers only: cairo, cairo-svg, cairo-pdf, pixman and libpng, for OrigamiRender's use.
        .systemLibrary(
            name: "CCairo",
            pkgConfig: "cairo",
            providers: [.apt(["libcairo2-dev"])]
        ),
        // Headers only: giflib (no pkg-config file), for the animated GIF writer.
        .systemLibrary(
            name: "CGif",
            providers: [.apt(["libgif-dev"])]
        ),
        // Headers only: cache prefetch hints (`origami_prefetch`), for Origami's and OrigamiRender's hot loops.
        .systemLibrary(name: "COrigamiPrefetch"),
        // Swift (and the prefetch hints): Core Animation math, the layer model, geometry, conversion and hit testing.
        .target(name: "Origami", dependencies: ["COrigamiPrefetch"]),
        // Render tree, 3D contexts, BSP, Cairo painting and output.
        .target(name: "OrigamiRender", dependencies: ["Origami", "CCairo", "CGif", "COrigamiPrefetch"]),
        // Scene files (YAML/JSON) to layer trees.
        .target(name: "OrigamiScene", dependencies: [
            "OrigamiRender",
            .product(name: "Yams", package: "Yams"),
        ]),
        // The live viewer: routes, page (Resources/, plain HTML/CSS/JS), file watching. `origami serve` runs it.
        .target(name: "OrigamiServe", dependencies: [
            "OrigamiScene",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
        ], resources: [.copy("Resources")]),
        .executableTarget(name: "origami", dependencies: [
            "OrigamiScene",
            "OrigamiServe",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        // Release-mode benchmarks with same-run baselines (`make bench`); raw Cairo and pixman are baselines.
        // Fixtures gives them the tests' book cube (not TestSupport: that links Swift Testing, whose debug info
        // valgrind cannot read, and callgrind counts are how these benchmarks compare implementations).
        .executableTarget(name: "OrigamiBenchmarks",
                          dependencies: ["Origami", "OrigamiRender", "OrigamiScene", "OrigamiServe", "CCairo", "Fixtures",
                                         "CBenchBSP"],
                          path: "Benchmarks/OrigamiBenchmarks"),
        // The BSP rows' baseline: the renderer's depth sort written as plain C on flat arrays.
        .target(name: "CBenchBSP", path: "Benchmarks/CBenchBSP", cSettings: [.unsafeFlags(["-O2"])]),
        // The book's cube and other scenes shared by the tests and the benchmarks (no test framework).
        .target(name: "Fixtures", dependencies: ["Origami"], path: "Tests/Fixtures"),
        .target(name: "OrigamiTesting", dependencies: ["Origami", "OrigamiRender", "OrigamiScene"]),
        .target(name: "TestSupport", dependencies: ["Origami", "Fixtures"], path: "Tests/TestSupport"),
        .testTarget(name: "OrigamiTests", dependencies: ["Origami", "TestSupport"]),
        // CGif: the GIF tests decode what the writer wrote with giflib's own reader.
        .testTarget(name: "OrigamiRenderTests", dependencies: ["OrigamiRender", "CGif", "TestSupport"]),
        .testTarget(name: "OrigamiSceneTests", dependencies: ["OrigamiScene", "OrigamiTesting", "TestSupport"]),
        // The viewer's routes through HummingbirdTesting (no port).
        .testTarget(name: "OrigamiServeTests", dependencies: [
            "OrigamiServe", "TestSupport",
            .product(name: "HummingbirdTesting", package: "hummingbird"),
        ]),
        // Runs the built `origami` executable as a process, as a user would.
        .testTarget(name: "OrigamiCLITests", dependencies: ["origami", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
