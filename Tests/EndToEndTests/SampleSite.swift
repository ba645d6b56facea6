import SampleAPI

extension SampleAPIServer {
    /// The `[[gallery]]` tables of a site on this server: a Pixabay gallery of `pages` pages of 5 items, a Flickr
    /// feed and a thumbnail gallery in `press/`, each table after an empty line.
    func siteGalleries(pages: Int = 2) async -> String {
        let (pixabay, flickr, thumbnails) = (await pixabayEndpoint, await flickrEndpoint, await thumbnailsEndpoint)
        return """

            [[gallery]]
            source = "pixabay"
            term = "Hamburg"
            per-page = 5
            pages = \(pages)
            endpoint = "\(pixabay)"

            [[gallery]]
            source = "flickr"
            term = "Berlin"
            endpoint = "\(flickr)"

            [[gallery]]
            source = "thumbnails"
            path = "press"
            limit = 12
            endpoint = "\(thumbnails)"

            """
    }
}

/// `vitrine flickr` with `extra` against the sample API's Flickr, with the workspace's `cache` and `out`.
func runFlickr(_ server: SampleAPIServer, _ workspace: Workspace, _ extra: [String]) async throws
    -> VitrineProcess.Outcome
{
    try await VitrineProcess.run(
        ["flickr"] + extra + [
            "--endpoint", await server.flickrEndpoint, "--cache", workspace.path("cache"), "--out",
            workspace.path("out"),
        ])
}
