// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Vitrine",
    products: [
        .executable(name: "vitrine", targets: ["vitrine"]),
        .library(name: "VitrineCore", targets: ["VitrineCore"]),
    ],
    dependencies: [
        // The command-line interface.
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // The HTTP server behind the bundled sample API (`vitrine demo`, tests, benchmarks).
        .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.1"),
        // The site config of `vitrine build` (vitrine.toml).
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        // `vitrine serve`: NIO's HTTP/1 parser (llhttp) reads a request head in linear time and bounds its size,
        // which FlyingFox's line reader does not (a 64 KB URL cost it 1.7 s of CPU, quadratic in the length).
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        .systemLibrary(
            name: "CCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        .systemLibrary(
            name: "CXSLT",
            pkgConfig: "libexslt",
            providers: [.apt(["libxslt1-dev", "libxml2-dev"])]
        ),
        .target(
            name: "VitrineTemplates",
            path: "Templates",
            exclude: ["README.md"],
            resources: [
                .embedInCode("layout.xsl"),
                .embedInCode("grid.xsl"),
                .embedInCode("preview.xsl"),
                .embedInCode("home.xsl"),
                .embedInCode("random.xsl"),
                .embedInCode("favorites.xsl"),
                .embedInCode("random.js"),
                .embedInCode("list.xsl"),
                .embedInCode("photo.xsl"),
                .embedInCode("vitrine.css"),
                .embedInCode("vitrine.js"),
                .embedInCode("gallery.rng"),
            ]
        ),
        .target(
            name: "VitrineCore",
            dependencies: ["CCrypto", "CCurl", "CXSLT", "VitrineTemplates"]
        ),
        .target(name: "CSampleImages"),
        .target(
            name: "SampleAPI",
            dependencies: [
                "CSampleImages",
                .product(name: "FlyingFox", package: "FlyingFox"),
                .product(name: "FlyingSocks", package: "FlyingFox"),
            ]
        ),
        .executableTarget(
            name: "vitrine",
            dependencies: [
                "VitrineCore",
                "SampleAPI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "TOMLKit", package: "TOMLKit"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        .testTarget(name: "VitrineCoreTests", dependencies: ["VitrineCore", "SampleAPI"]),
        .testTarget(name: "SampleAPITests", dependencies: ["SampleAPI"]),
        .testTarget(name: "EndToEndTests", dependencies: ["VitrineCore", "SampleAPI"]),
    ]
)
