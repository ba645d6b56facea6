import VitrinePipeline

/// One gallery ready for the pipeline, and the secrets (API keys) no message may show.
struct GallerySetup {
    var plan: SitePart
    var secrets: [String]
}
