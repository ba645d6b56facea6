#!/usr/bin/env python3
"""Helpers of bench/run: the URL lists for curl, the Hugo content, and the results table."""

import argparse
import json
import os
import statistics
import sys
import urllib.parse
import urllib.request
import xml.etree.ElementTree as ElementTree


def api_pages(endpoint, key, query, items):
    """The search URLs Vitrine asks for `items` hits (PixabaySource.plan: at most 200 a page, as few pages as can be)."""
    pages = max(1, -(-items // 200))
    per_page = min(max(-(-items // pages), 3), 200)
    urls = []
    for page in range(1, pages + 1):
        parameters = [("key", key), ("q", query), ("safesearch", "true"), ("page", str(page)),
                      ("per_page", str(per_page))]
        urls.append(endpoint + "?" + urllib.parse.urlencode(parameters, quote_via=urllib.parse.quote))
    return urls, per_page


def other_sizes(hit):
    """The other sizes of a hit's web format that Vitrine downloads too (PixabaySource.alternates): `_180` and
    `_340` when the web format is taller, `_960` when the original boxed to 960 x 720 is larger than it."""
    url, width, height = hit.get("webformatURL", ""), hit.get("webformatWidth"), hit.get("webformatHeight")
    stem, _, name = url.rpartition("/")
    if name.count("_640.") != 1 or not width or not height:
        return []
    sizes = [f"{stem}/{name.replace('_640.', f'_{size}.')}" for size in (180, 340) if size < height]
    original_width, original_height = hit.get("imageWidth"), hit.get("imageHeight")
    if original_width and original_height:
        scale = min(960 / original_width, 720 / original_height, 1)
        # int(x + 0.5): Swift's rounded(), half away from zero, not Python's round() (half to even)
        if int(original_width * scale + 0.5) > width and int(original_height * scale + 0.5) > height:
            sizes.append(f"{stem}/{name.replace('_640.', '_960.')}")
    return sizes


def command_urls(arguments):
    """Writes a curl config that fetches what a cold Vitrine run fetches: the API pages and every distinct image."""
    api = []
    images = []
    seen = set()
    for query in arguments.queries:
        urls, _ = api_pages(arguments.endpoint, arguments.key, query, arguments.items)
        hits = []
        for url in urls:
            api.append(url)
            with urllib.request.urlopen(url, timeout=60) as response:
                hits += json.load(response)["hits"]
        for hit in hits[: arguments.items]:
            for url in [hit["webformatURL"], hit["largeImageURL"], *other_sizes(hit)]:
                if url not in seen:
                    seen.add(url)
                    images.append(url)
    with open(arguments.config, "w", encoding="utf-8") as config:
        for index, url in enumerate(api + images):
            config.write(f'url = "{url}"\noutput = "{arguments.output}/{index}"\n')
    print(f"{len(api)} API pages and {len(images)} images", file=sys.stderr)


# The file names the albums reference gives the API answers (the user list, a user's albums, an album's photos).
ALBUM_ANSWERS = ("users.json", "users-{}-albums.json", "albums-{}-photos.json")


def command_album_api_urls(arguments):
    """Writes a curl config that fetches the API answers a cold `vitrine albums` run fetches (the user list, each
    chosen user's albums, each chosen album's photos) into ANSWERS, named as `album-content` reads them. No image:
    since issue 23 Vitrine shows JSONPlaceholder's photos from their own URLs. curl gets the whole list up front,
    while Vitrine must ask in three rounds (users, then albums, then photos)."""
    base = arguments.endpoint.rstrip("/")

    def load(path):
        with urllib.request.urlopen(f"{base}/{path}", timeout=60) as response:
            return json.load(response)

    users_name, albums_name, photos_name = ALBUM_ANSWERS
    requests = [(f"{base}/users", users_name)]
    for user in load("users")[: arguments.users]:
        requests.append((f"{base}/users/{user['id']}/albums", albums_name.format(user["id"])))
        for album in load(f"users/{user['id']}/albums")[: arguments.albums]:
            requests.append((f"{base}/albums/{album['id']}/photos", photos_name.format(album["id"])))
    with open(arguments.config, "w", encoding="utf-8") as config:
        for url, name in requests:
            config.write(f'url = "{url}"\noutput = "{arguments.answers}/{name}"\n')
    print(f"{len(requests)} API requests", file=sys.stderr)


def stable_hash(text):
    """FNV-1a, 64 bits, as JSONPlaceholderSource.stableHash: the album's cover is picked with it."""
    value = 0xCBF29CE484222325
    for byte in text.encode():
        value = ((value ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return value


def command_album_content(arguments):
    """Turns the API answers in ANSWERS into the Hugo content of bench/hugo-albums, as a user of Hugo would with a
    script of their own: the users page's title, a page per user, a section per album (its cover picked as Vitrine
    picks it) and a page per photo, with JSONPlaceholder's via.placeholder.com URLs rewritten to
    `IMAGE-ENDPOINT/seed/{hex}/{size}` (PlaceholderURLRewrite). Links, positions, neighbours and grid pages are left
    to Hugo's templates."""
    images_base = arguments.image_endpoint.rstrip("/")
    users_name, albums_name, photos_name = ALBUM_ANSWERS
    content = os.path.join(arguments.site, "content")

    def read(name):
        with open(os.path.join(arguments.answers, name), encoding="utf-8") as answer:
            return json.load(answer)

    def write(path, front):
        with open(path, "w", encoding="utf-8") as page:
            page.write(json.dumps(front, ensure_ascii=False) + "\n")

    def image(url):
        # https://via.placeholder.com/600/92c952 -> IMAGE-ENDPOINT/seed/92c952/600
        size, colour = url.rstrip("/").split("/")[-2:]
        return {"src": f"{images_base}/seed/{colour.split('.')[0].lower()}/{size}", "width": int(size),
                "height": int(size)}

    for folder in ("users", "albums"):
        os.makedirs(os.path.join(content, folder), exist_ok=True)
    write(os.path.join(content, "_index.md"), {"title": "Users"})
    hidden = {"_build": {"render": "never", "list": "never"}}
    write(os.path.join(content, "users", "_index.md"), hidden)
    write(os.path.join(content, "albums", "_index.md"), hidden)
    pages = 1
    for user_position, user in enumerate(read(users_name)[: arguments.users]):
        write(os.path.join(content, "users", f"{user['id']}.md"),
              {"title": user["name"], "username": user["username"], "user": user["id"],
               "weight": user_position + 1})
        pages += 1
        for album_position, album in enumerate(read(albums_name.format(user["id"]))[: arguments.albums]):
            photos = read(photos_name.format(album["id"]))
            folder = os.path.join(content, "albums", str(album["id"]))
            os.makedirs(folder, exist_ok=True)
            front = {"title": album["title"], "user": user["id"], "album": album["id"],
                     "weight": album_position + 1}
            if photos:
                chosen = photos[stable_hash(f"album-cover:{album['id']}") % len(photos)]
                front["cover"] = image(chosen["thumbnailUrl"])
            write(os.path.join(folder, "_index.md"), front)
            pages += max(1, -(-len(photos) // 25))
            for photo_position, photo in enumerate(photos):
                write(os.path.join(folder, f"{photo['id']}.md"),
                      {"title": photo["title"], "photo": photo["id"], "weight": photo_position + 1,
                       "url": f"photos/{photo['id']}.html", "tile": image(photo["thumbnailUrl"]),
                       "full": image(photo["url"])})
                pages += 1
    print(f"{pages} pages to build", file=sys.stderr)


def command_hugo_content(arguments):
    """Turns Vitrine's gallery.xml into Hugo content: one page per item and variant, with the same data."""
    model = ElementTree.parse(arguments.model).getroot()
    variants = [variant.get("key") for variant in model.find("variants")]
    labels = {variant.get("key"): variant.get("label") for variant in model.find("variants")}
    items = model.findall("collection/item")
    content = os.path.join(arguments.site, "content", "items")
    os.makedirs(content, exist_ok=True)
    with open(os.path.join(arguments.site, "content", "_index.md"), "w", encoding="utf-8") as index:
        json.dump({"title": model.findtext("title")}, index)
        index.write("\n")
    def page_name(item, variant):
        entry = next(entry for entry in item.findall("entry") if entry.get("variant") == variant)
        return os.path.basename(entry.get("href"))

    count = 0
    for position, item in enumerate(items):
        entries = {entry.get("variant"): entry for entry in item.findall("entry")}
        for variant in variants:
            entry = entries[variant]
            front = {
                "title": entry.findtext("caption") or f"Image {position + 1}",
                "weight": position * len(variants) + variants.index(variant) + 1,
                "variant": variant,
                "primary": variant == variants[0],
                "label": labels[variant],
                "position": position + 1,
                "count": len(items),
                "gridPage": int(item.get("page")),
                "anchor": item.get("id"),
                "switch": [{"label": labels[other], "href": page_name(item, other), "current": other == variant}
                           for other in variants],
            }
            if position > 0:
                front["prev"] = page_name(items[position - 1], variant)
            if position + 1 < len(items):
                front["next"] = page_name(items[position + 1], variant)
            credit = entry.find("credit")
            if credit is not None:
                front["credit"] = credit.get("name")
                front["creditURL"] = credit.get("href")
            for image in entry.findall("image"):
                if image.get("src"):
                    front[image.get("role")] = {"src": image.get("src"), "width": int(image.get("width")),
                                                "height": int(image.get("height"))}
            if entry.find("missing") is not None:
                front["missing"] = entry.findtext("missing")
            name = page_name(item, variant)[: -len(".html")] + ".md"
            with open(os.path.join(content, name), "w", encoding="utf-8") as page:
                json.dump(front, page, ensure_ascii=False)
                page.write("\n")
            count += 1
    print(f"{count} Hugo pages for {len(items)} items", file=sys.stderr)


def command_revise_cache(arguments):
    """Changes the tags of one hit in the cached first page of each query, as the API would have: the body and its
    record are replaced (new files renamed into place, so hard-linked copies keep the old bytes) and stay fresh."""
    import hashlib
    changed = 0
    folder = os.path.join(arguments.cache, "responses")
    for shard in sorted(os.listdir(folder)):
        for name in sorted(os.listdir(os.path.join(folder, shard))):
            if not name.endswith(".meta"):
                continue
            record_path = os.path.join(folder, shard, name)
            body_path = record_path[: -len(".meta")] + ".body"
            with open(record_path, encoding="utf-8") as file:
                record = json.load(file)
            query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(record["url"]).query))
            if query.get("q") not in arguments.queries or query.get("page", "1") != "1":
                continue
            with open(body_path, "rb") as file:
                body = json.load(file)
            body["hits"][arguments.hit - 1]["tags"] += ", revised"
            revised = json.dumps(body).encode()
            record["bodyBytes"] = len(revised)
            record["bodySHA256"] = hashlib.sha256(revised).hexdigest()
            for path, data in [(body_path, revised), (record_path, json.dumps(record, sort_keys=True).encode())]:
                with open(path + ".revising", "wb") as file:
                    file.write(data)
                os.replace(path + ".revising", path)
            changed += 1
    if changed != len(arguments.queries):
        sys.exit(f"bench.py: changed {changed} cached pages, expected {len(arguments.queries)}")


def command_archive_history(arguments):
    """A history whose gallery has, besides the items of the seed build, ITEMS that left the results (`keep =
    "all"`): each a copy of a current item's record under an id of its own, its images at URLs of their own with the
    seed's bytes (so the build finds them beside the history, as in a previous publish)."""
    with open(arguments.seed, encoding="utf-8") as file:
        history = json.load(file)
    gallery = history["galleries"][0]
    records = [item["record"] for item in gallery["items"] if item.get("record")]
    if not records:
        sys.exit("bench.py: the seed history keeps no item's record; build it with keep = \"all\"")
    for number in range(1, arguments.items + 1):
        record = json.loads(json.dumps(records[number % len(records)]))
        for entry in record["entries"]:
            for image in (entry["tile"], entry["full"]):
                image["url"] += ("&" if "?" in image["url"] else "?") + f"archived={number}"
        gallery["items"].append(
            {"id": f"archived-{number}", "first-seen": 1, "last-seen": 1, "current": False, "record": record})
    with open(arguments.output, "w", encoding="utf-8") as file:
        json.dump(history, file, sort_keys=True, separators=(",", ":"))
        file.write("\n")


def load_result(path):
    """The first command's result in a hyperfine JSON export, or None when the export is missing or incomplete."""
    try:
        with open(path, encoding="utf-8") as export:
            return json.load(export)["results"][0]
    except (OSError, ValueError, KeyError, IndexError):
        return None


def load_runs(path):
    """(median, min, max) wall seconds of a hyperfine JSON export's first command, or None."""
    result = load_result(path)
    if not result or not result.get("times"):
        return None
    times = result["times"]
    return statistics.median(times), min(times), max(times)


def load_cpu(path):
    """Mean CPU seconds (user + system) per run of a hyperfine JSON export's first command, or None."""
    result = load_result(path)
    return None if result is None else result["user"] + result["system"]


def cpu(value):
    if value is None:
        return "—"
    return f"{value * 1000:.0f} ms" if value < 1 else f"{value:.2f} s"


def load_rss(path):
    """The median peak RSS in MiB of the measured runs (`/usr/bin/time -f %M` lines, KiB), or None."""
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as lines:
        values = [int(line) for line in lines if line.strip().isdigit()]
    return statistics.median(values) / 1024 if values else None


def seconds(value):
    if value is None:
        return "—"
    median, low, high = value
    if median < 1:
        return f"{median * 1000:.0f} ms ({low * 1000:.0f}–{high * 1000:.0f})"
    return f"{median:.2f} s ({low:.2f}–{high:.2f})"


def command_report(arguments):
    """Prints the results table (Markdown) from the exports in the work folder."""
    work = arguments.work
    rows = [
        "| workload | N | Vitrine median (min–max) | Vitrine CPU | reference | reference median (min–max) | "
        "reference CPU | ratio | Vitrine peak RSS | target |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]

    def row(workload, size, name, reference, reference_name, ratio, target, shown=None):
        ours = load_runs(f"{work}/{name}-{size}.json")
        if ours is None:
            return
        theirs = load_runs(f"{work}/{reference_name}-{size}.json") if reference_name else None
        rss = load_rss(f"{work}/{name}-{size}.rss")
        ratio_text, met = ratio(ours, theirs) if ours and (theirs or not reference_name) else ("—", None)
        mark = "" if met is None else (" ✔" if met else " ✘")
        their_cpu = cpu(load_cpu(f"{work}/{reference_name}-{size}.json")) if reference_name else "—"
        rows.append(
            f"| {workload} | {shown or size} | {seconds(ours)} | {cpu(load_cpu(f'{work}/{name}-{size}.json'))} | {reference} | "
            f"{seconds(theirs)} | {their_cpu} | {ratio_text} | {mib(rss)} | {target}{mark} |")

    def within(factor, reference="curl"):
        return lambda ours, theirs: (f"{ours[0] / theirs[0]:.2f}× {reference}", ours[0] <= factor * theirs[0])

    for size in arguments.sizes:
        row("W1 cold", size, "w1-vitrine", "curl --parallel", "w1-curl", within(1.05), "≤ 1.05× curl")
    for size in arguments.sizes:
        # The bound: under 50 ms up to 1,000 items, under 150 ms at 10,000.
        bound = 0.050 if size <= 1000 else 0.150
        row("W2 no change", size, "w2-vitrine", "Hugo", "w2-hugo",
            lambda ours, theirs, bound=bound: (f"Hugo {theirs[0] / ours[0]:.1f}× slower",
                                               ours[0] < bound and theirs[0] >= 5 * ours[0]),
            f"< {bound * 1000:.0f} ms and ≥ 5× faster than Hugo")
    for size in arguments.sizes:
        row("W3 one item changed at the API (`--refresh`)", size, "w3-vitrine", "—", None,
            lambda ours, theirs: ("—", ours[0] < 0.150), "< 150 ms")
    for size in arguments.sizes:
        row("W3 one item changed in the cache (no request)", size, "w3c-vitrine", "—", None,
            lambda ours, theirs: ("—", ours[0] < 0.100), "< 100 ms")
    if arguments.albums:
        users, albums = arguments.albums
        size, shown = f"{users}x{albums}", f"{users * albums * 50} photos"
        # The reference: curl fetching the same API answers, then Hugo building the same pages from them (and the
        # script in between that turns the answers into Hugo content), as one command: bench/lib/albums-reference.
        reference = "curl (the API answers) + Hugo (the same pages)"
        row("Albums cold", size, "albums-vitrine", reference, "albums-reference", within(1.05, "the reference"),
            "≤ 1.05× the reference, peak RSS < 80 MB", shown)
        row("Albums cold, no delay at the API", size, "albums-fast-vitrine", reference, "albums-fast-reference",
            within(1.5, "the reference"), "≤ 1.5× the reference (issue 25)", shown)
        row("`vitrine demo --source albums` cold (its own sample API, no delay)", size, "albums-demo", "—", None,
            lambda ours, theirs: ("—", ours[0] <= 10), "≤ 10 s", shown)
    print("\n".join(rows))


def mib(value):
    return "—" if value is None else f"{value:.1f} MiB"


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    urls = commands.add_parser("urls")
    urls.add_argument("--endpoint", required=True)
    urls.add_argument("--key", required=True)
    urls.add_argument("--items", type=int, required=True)
    urls.add_argument("--config", required=True)
    urls.add_argument("--output", required=True)
    urls.add_argument("queries", nargs="+")
    hugo = commands.add_parser("hugo-content")
    hugo.add_argument("--model", required=True)
    hugo.add_argument("--site", required=True)
    revise = commands.add_parser("revise-cache")
    revise.add_argument("--cache", required=True)
    revise.add_argument("--hit", type=int, default=1)
    revise.add_argument("queries", nargs="+")
    report = commands.add_parser("report")
    report.add_argument("--work", required=True)
    report.add_argument("--albums", nargs=2, type=int, metavar=("USERS", "ALBUMS"))
    report.add_argument("sizes", nargs="*", type=int)
    album_api = commands.add_parser("album-api-urls")
    album_api.add_argument("--endpoint", required=True)
    album_api.add_argument("--users", type=int, required=True)
    album_api.add_argument("--albums", type=int, required=True)
    album_api.add_argument("--config", required=True)
    album_api.add_argument("--answers", required=True)
    album_content = commands.add_parser("album-content")
    album_content.add_argument("--answers", required=True)
    album_content.add_argument("--site", required=True)
    album_content.add_argument("--image-endpoint", required=True)
    album_content.add_argument("--users", type=int, required=True)
    album_content.add_argument("--albums", type=int, required=True)
    archive = commands.add_parser("archive-history")
    archive.add_argument("--seed", required=True)
    archive.add_argument("--items", type=int, required=True)
    archive.add_argument("--output", required=True)
    arguments = parser.parse_args()
    {"urls": command_urls, "hugo-content": command_hugo_content, "revise-cache": command_revise_cache,
     "report": command_report, "album-api-urls": command_album_api_urls,
     "album-content": command_album_content,
     "archive-history": command_archive_history}[arguments.command](
        arguments)


if __name__ == "__main__":
    main()
