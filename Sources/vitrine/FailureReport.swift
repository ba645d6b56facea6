import Foundation
import VitrineBasics
import VitrineHTTP
import VitrineModel
import VitrinePipeline
import VitrinePublish
import VitrineSources
import VitrineStore

/// A failure of the command line's own (a bad value, a stop by signal or deadline), with the exit status it ends
/// the run with.
protocol CommandLineFailure: Error {
    /// One plain sentence saying what happened and what to do.
    var sentence: String { get }
    var exitStatus: ExitStatus { get }
}

/// How a failed run is told on stderr: one sentence, naming the flags that change the outcome where the library's
/// own sentence speaks of what they do, and the exit status the run ends with.
enum FailureReport {
    static func exitStatus(for error: any Error) -> ExitStatus {
        switch error {
        case let error as any CommandLineFailure: error.exitStatus
        case let error as any UserFacingError: ExitStatus(error.kind)
        case is CancellationError: .interrupted
        default: .failure
        }
    }

    static func sentence(for error: any Error) -> String {
        switch error {
        case let error as any CommandLineFailure: error.sentence
        case let error as any UserFacingError: flagSentence(for: error) ?? error.sentence
        case is CancellationError: Interruption.Stop.signal(SIGINT).sentence
        default: "unexpected error: \(error)."
        }
    }

    /// The sentence of an error whose remedy is a flag of `vitrine`; nil for the others.
    private static func flagSentence(for error: any UserFacingError) -> String? {
        switch error {
        case let error as NothingCachedError:
            "Nothing is cached for \(error.url), and --offline forbids asking the network; run once without "
                + "--offline first."
        case is NoRandomImageYet:
            "No random image has been fetched into this folder yet, and --offline forbids asking the network; run "
                + "once without --offline first."
        case let error as IncompleteGalleryError:
            "The gallery lacks \(error.summary.losses) thing\(error.summary.losses == 1 ? "" : "s") (see the "
                + "warnings above), and --strict makes that a failure; the output folder was left as it was."
        case let error as UpdateIntervalError:
            "--every takes a duration such as 30s, 10m, 1h or 1h30m, from 5 seconds to 30 days; “\(error.text)” is "
                + "not one."
        case let error as ImageEncoderUnavailableError:
            "--formats needs libvips 8 (Debian's libvips42 package), which could not be loaded (\(error.reason)); "
                + "install it, or build without --formats."
        case let error as OutputBusyError:
            "Another Vitrine run is writing into \(error.folder), and --no-wait was given; run again when it has "
                + "finished."
        case let error as OutputManifestDamagedError:
            "The manifest of \(error.folder) (\(OutputManifest.fileName)) is damaged: \(error.reason); Vitrine "
                + "cannot tell which files there are its own, so rebuild with --force (files it did not write are "
                + "left alone)."
        case let error as LicenseChoiceError:
            LicenseOption.sentence(for: error)
        case let error as OutputOwnershipError:
            "Refusing to write into \(error.folder): it holds files Vitrine did not write (\(shown(error.foreignFiles, more: "…"))); "
                + "pass --force to write beside them (it never replaces them), or choose another --out."
        case let error as ForeignFileInTheWayError:
            error.sentence.replacingOccurrences(of: "another output folder", with: "another --out")
        case let error as FileWriteError where error.linkedFolder != nil:
            "Could not write \(error.path): \(error.reason.replacingOccurrences(of: "another output folder", with: "another --out"))."
        case let error as HistoryFileError:
            "The history \(error.file) cannot be used: \(error.problem); fix or remove it, or name another publish's "
                + "history.json with --history-from."
        case let error as PreviousHistoryUnavailableError:
            "The previous history at \(error.location) could not be read (\(error.reason)), so the build stopped "
                + "rather than start the site's history over; if this is the site's first publish, pass --new-history "
                + "to start one, or name the previous history.json with --history-from."
        case let error as HistoryUnsupportedError:
            "A site's history cannot be kept \(error.detail) yet; build it without --shard and --merge, or without "
                + "history."
        case let error as FrozenBuildError: frozenSentence(error)
        case let error as ShardMergeError: shardSentence(error)
        case let error as SourceError: sourceSentence(error)
        case let error as FetchError:
            if case .timedOut = error {
                error.sentence.dropLast() + "; --transfer-timeout sets that limit."
            } else {
                nil
            }
        default: nil
        }
    }

    private static func frozenSentence(_ error: FrozenBuildError) -> String {
        switch error {
        case .noManifest(let folder):
            "--frozen rebuilds from an earlier build's manifest, and \(folder) has none; build once without --frozen "
                + "first."
        case .missing(let things):
            "--frozen forbids the network, and the cache lacks \(shown(things)); build once without --frozen first."
        case .changed(let gallery, let detail):
            "--frozen found that the gallery \(gallery) \(detail); build without --frozen to accept the change."
        case .noRandomState(let folder):
            "--frozen rebuilds the random page from its \(folder)\(RandomPageState.fileName), and the output has none "
                + "for this source; build once without --frozen first."
        }
    }

    private static func shardSentence(_ error: ShardMergeError) -> String? {
        switch error {
        case .notAShard(let folder):
            "\(folder) is not the output of vitrine build --shard; pass --merge the --out folder of each shard."
        case .otherConfig(let folder):
            "The shard in \(folder) was built from another config or --templates than this one; build every shard "
                + "with the same --config and --templates, then --merge."
        case .galleryMissing(let gallery):
            "No shard folder given to --merge holds the gallery \(gallery); build its shard and pass every shard's "
                + "folder."
        case .outputIsAShard(let folder):
            "--out \(folder) is one of the shards given to --merge; choose another --out."
        default: nil
        }
    }

    private static func sourceSentence(_ error: SourceError) -> String? {
        switch error {
        case .keyMissing(let source, let signup):
            let variable = keyVariables[source].map { " or set \($0)" } ?? ""
            return "No \(source) API key: pass --key\(variable) (\(signup))."
        case .keyRejected(let source, let message):
            return "\(source) rejected the API key (\(message)); check --key or the environment variable."
        default:
            return nil
        }
    }

    /// The environment variable each keyed source reads its key from.
    private static let keyVariables = [
        "Pixabay": "PIXABAY_API_KEY", "Flickr": "FLICKR_API_KEY", "Unsplash": "UNSPLASH_ACCESS_KEY",
    ]

    private static func shown(_ things: [String], more: String? = nil) -> String {
        things.prefix(3).joined(separator: ", ")
            + (things.count > 3 ? (more.map { ", \($0)" } ?? " and \(things.count - 3) more") : "")
    }
}
