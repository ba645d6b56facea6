// swift-tools-version: 6.0
import PackageDescription

#if canImport(Glibc)
    import Glibc
#endif

/// How the `vitrine` binary is linked (BENCHMARKS.md, "Memory"): with the toolchain's lld, without exporting every
/// symbol of the executable (nothing looks them up), and, where the C library can load them (glibc 2.36 and
/// later), with the relative relocations packed (`DT_RELR`): 100,000 of them are 2.4 MB of `.rela.dyn` that every
/// start reads, against 20 KB packed. Together about 4 MB less resident memory and a faster start.
let executableLinking: [LinkerSetting] = {
    var flags = ["-use-ld=lld", "-Xlinker", "--no-export-dynamic"]
    #if canImport(Glibc)
        var name = [CChar](repeating: 0, count: 64)  // "glibc 2.36"
        _ = confstr(Int32(_CS_GNU_LIBC_VERSION), &name, name.count)
        let number =
            String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            .split(separator: " ").last ?? ""
        let version = number.split(separator: ".").compactMap { Int($0) }
        if version.count >= 2, (version[0], version[1]) >= (2, 36) {
            flags += ["-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"]
        }
    #endif
    return [.unsafeFlags(flags, .when(platforms: [.linux]))]
}()

/// swift-system's typed `Errno`, for the file layer and the tests of it.
let systemPackage = Target.Dependency.product(name: "SystemPackage", package: "swift-system")

let package = Package(
    name: "Vitrine",
    products: [
        .executable(name: "vitrine", targets: ["vitrine"]),
        .library(
            name: "Vitrine",
            targets: [
                "VitrineBasics", "VitrineHTTP", "VitrineStore", "VitrineSources", "VitrineModel", "VitrineImaging",
                "VitrineRender", "VitrinePublish", "VitrinePipeline",
            ]
        ),
    ],
    dependencies: [
        // The command-line interface.
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // The site config of `vitrine build` (vitrine.toml).
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        // The HTTP servers: `vitrine serve` and the bundled sample API (`vitrine demo`, tests, benchmarks). NIO's
        // HTTP/1 parser (llhttp) reads a request head in linear time and bounds its size, which FlyingFox's line
        // reader did not (its time was quadratic in the length: BENCHMARKS.md, "Figures behind the code"); and
        // FlyingFox brought Foundation's URLSession into the binary, which links libcurl at every start.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // Typed errno values for the file layer (VitrineBasics' SystemCall); already in the graph through swift-nio.
        .package(url: "https://github.com/apple/swift-system", from: "1.4.0"),
    ],
    targets: [
        // libcurl's header only, for its types and constants: the library is loaded at run time by the first
        // transfer (Sources/CCurl/shim.h says why), so no `pkgConfig`, whose `-lcurl` would link it. Debian's
        // header is in the compiler's own search path.
        .systemLibrary(name: "CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(
            name: "CCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        // Linux constants Swift does not import (O_TMPFILE, SCHED_IDLE), for the file layer and the early pages.
        .systemLibrary(name: "CLinux"),
        // libvips, loaded at run time by the builds that re-encode images (Sources/CVips/shim.h says why).
        .systemLibrary(name: "CVips", providers: [.apt(["libvips42"])]),
        .systemLibrary(
            name: "CXSLT",
            pkgConfig: "libexslt",
            providers: [.apt(["libxslt1-dev", "libxml2-dev"])]
        ),
        .target(
            name: "VitrineTemplates",
            path: "Templates",
            resources: [
                .embedInCode("README.md"),
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
                .embedInCode("changes.xsl"),
                .embedInCode("site-changes.xsl"),
                .embedInCode("tags.xsl"),
                .embedInCode("tag.xsl"),
                .embedInCode("site-tags.xsl"),
                .embedInCode("site-tag.xsl"),
                .embedInCode("search.xsl"),
                .embedInCode("search.js"),
                .embedInCode("site-search.xsl"),
            ]
        ),
        // The pipeline, one target per stage; every dependency points down (docs/architecture.md).
        .target(
            name: "VitrineBasics",
            dependencies: ["CCrypto", "CLinux", systemPackage]
        ),
        .target(name: "VitrineHTTP", dependencies: ["VitrineBasics", "CCurl"]),
        .target(
            name: "VitrineStore",
            dependencies: ["VitrineBasics", "VitrineHTTP", systemPackage]
        ),
        .target(name: "VitrineSources", dependencies: ["VitrineBasics", "VitrineHTTP", "VitrineStore"]),
        .target(name: "VitrineModel", dependencies: ["VitrineBasics", "VitrineStore", "VitrineSources"]),
        .target(name: "VitrineImaging", dependencies: ["VitrineBasics", "CVips"]),
        .target(
            name: "VitrineRender",
            dependencies: ["VitrineBasics", "VitrineSources", "VitrineModel", "CXSLT", "VitrineTemplates"]
        ),
        .target(
            name: "VitrinePublish",
            dependencies: ["VitrineBasics", "VitrineStore", "VitrineSources", "VitrineModel", systemPackage]
        ),
        .target(
            name: "VitrinePipeline",
            dependencies: [
                "VitrineBasics", "VitrineHTTP", "VitrineStore", "VitrineSources", "VitrineModel", "VitrineImaging",
                "VitrineRender", "VitrinePublish",
            ]
        ),
        .target(name: "CSampleImages"),
        .target(
            name: "SampleAPI",
            dependencies: [
                "CSampleImages",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        .executableTarget(
            name: "vitrine",
            dependencies: [
                "VitrineBasics", "VitrineHTTP", "VitrineStore", "VitrineSources", "VitrineModel", "VitrineRender",
                "VitrinePublish", "VitrinePipeline", "VitrineTemplates",
                "SampleAPI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "TOMLKit", package: "TOMLKit"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            // What `vitrine init` writes; the workflow is the one docs/ci.md shows (a test keeps them equal).
            resources: [.embedInCode("Starter/vitrine.toml"), .embedInCode("Starter/gallery.yml")],
            linkerSettings: executableLinking
        ),
        .target(
            name: "VitrineTestSupport",
            dependencies: ["VitrineBasics", "VitrineHTTP", "VitrineStore", "VitrineSources", "VitrineModel"],
            path: "Tests/VitrineTestSupport"
        ),
        .testTarget(
            name: "VitrineBasicsTests",
            dependencies: [
                "VitrineBasics", "VitrineHTTP", "VitrineSources", "VitrineTestSupport", "SampleAPI",
                systemPackage,
            ]
        ),
        .testTarget(
            name: "VitrineHTTPTests",
            dependencies: [
                "VitrineBasics", "VitrineHTTP", "VitrineTestSupport", "SampleAPI",
            ]
        ),
        .testTarget(
            name: "VitrineStoreTests",
            dependencies: [
                "VitrineBasics", "VitrineHTTP", "VitrineStore", "VitrineTestSupport", "SampleAPI",
            ]
        ),
        .testTarget(
            name: "VitrineSourcesTests",
            dependencies: [
                "VitrineHTTP", "VitrineStore", "VitrineSources", "VitrineTestSupport", "SampleAPI",
            ]
        ),
        .testTarget(
            name: "VitrineModelTests",
            dependencies: [
                "VitrineHTTP", "VitrineStore", "VitrineSources", "VitrineModel", "VitrineRender", "VitrineTestSupport",
            ]
        ),
        .testTarget(
            name: "VitrineImagingTests",
            dependencies: ["VitrineBasics", "VitrineImaging", "SampleAPI"]
        ),
        .testTarget(
            name: "VitrineRenderTests",
            dependencies: [
                "VitrineBasics", "VitrineHTTP", "VitrineStore", "VitrineSources", "VitrineModel", "VitrineRender",
                "VitrineTestSupport",
            ]
        ),
        .testTarget(
            name: "VitrinePublishTests",
            dependencies: [
                "VitrineBasics", "VitrineStore", "VitrinePublish", "VitrineTestSupport",
            ]
        ),
        .testTarget(
            name: "VitrinePipelineTests",
            dependencies: [
                "VitrineBasics", "VitrineHTTP", "VitrineStore", "VitrineSources", "VitrineModel", "VitrinePipeline",
                "VitrineTestSupport", "SampleAPI",
            ]
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "VitrineBasics", "VitrineHTTP", "VitrineStore", "VitrineModel", "VitrineRender", "VitrinePublish",
                "VitrinePipeline", "SampleAPI", "VitrineTestSupport",
            ]
        ),
        .testTarget(name: "SampleAPITests", dependencies: ["SampleAPI", "VitrineBasics", "VitrineTestSupport"]),
    ]
)
