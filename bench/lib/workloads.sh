# The workloads' preparation, shared by bench/run and bench/budget (sourced, not run): the Debian tools they need,
# the release build, the sample API they build from, and the Vitrine command of each workload (see BENCHMARKS.md).
#
# The caller sets repo (the checkout), work (its scratch folder), vitrine (the binary), delay (ms per request at
# the sample API), jobs (transfers at once) and largest (the largest size it builds), then calls start_server.

term="bench"
key="sample-key"

# Installs the named Debian packages (the ones the caller found missing) and the libraries Vitrine builds against.
install_packages() {
    if [ $# -gt 0 ]; then
        echo "== installing $*"
        local sudo=""
        [ "$(id -u)" -eq 0 ] || sudo="sudo"
        $sudo apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@" > /dev/null
    fi
    "$repo/scripts/install-deps"
}

# The README's release build, the one every benchmark measures.
build_release() {
    echo "== swift build -c release --static-swift-stdlib"
    swift build -c release --static-swift-stdlib --product vitrine 2>&1 | tail -1
}

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# -- The sample API: a fixed port, so that a restart (W3) keeps the cache keys ------------------------------------
port=""
endpoint=""
server_pid=""
start_server() {
    if [ -z "$port" ]; then
        port=$(free_port)
        endpoint="http://127.0.0.1:$port/api/"
    fi
    "$vitrine" sample-api --port "$port" --hit-cap "$largest" --hits "$term=$largest" \
        --hits "$term graffiti=$largest" --distinct-images --rate-limit 1000000 --fault "all:delay=$delay" "$@" \
        > "$work/sample-api.log" 2>&1 &
    server_pid=$!
    for _ in $(seq 100); do
        curl -sf -o /dev/null "http://127.0.0.1:$port/" && return 0
        sleep 0.1
    done
    echo "$(basename "$0"): the sample API did not start:" >&2
    cat "$work/sample-api.log" >&2
    exit 1
}
stop_server() {
    if [ -n "$server_pid" ]; then
        kill "$server_pid" 2> /dev/null || true
        wait "$server_pid" 2> /dev/null || true
        server_pid=""
    fi
}

# One Vitrine build of `size` items into out-SIZE with cache-SIZE (arguments after the size are added). The cache
# may hold 16 GiB: 10,000 items fill 4.4 GB, over the default 1 GiB, and a build whose own images are over the
# size walks the whole cache after each change and warns (BENCHMARKS.md, "W3").
vitrine_command() {
    local size=$1 suffix=$2
    shift 2
    local per_page=100 pages=$((size / 100))
    [ "$size" -lt 100 ] && per_page=$size && pages=1
    echo "$vitrine pixabay $term --endpoint $endpoint --key $key --hit-cap $largest --per-page $per_page" \
        "--pages $pages --jobs $jobs --out $work/out-$size$suffix --cache $work/cache-$size$suffix -q" \
        "--cache-max-size 16G $*"
}

# A cold run starts from folders moved aside, not deleted, and after a `sync`: deleting the previous run's thousands
# of files just before made ext4 skip each recently freed inode when allocating new ones (`recently_deleted`, up to
# a fifth of a run's CPU in `perf`), and the write-back of its hundreds of megabytes landed in the next run; neither
# happens to a real cold build. What was set aside is deleted after the measurements.
set_aside() {
    echo "mkdir -p $work/trash && trash=\$(mktemp -d $work/trash/run.XXXXXX) && for folder in $*; do if [ -e \$folder ]; then mv \$folder \$trash/; fi; done"
}

# The state W2 and W3 start from: a complete build of `size` items with a warm cache.
build_unchanged() {
    local size=$1
    [ -f "$work/out-$size/gallery.xml" ] || eval "$(vitrine_command "$size" "")"
}

# W3 rebuilds the output folder and cache of the unchanged build, restored before every run as hard links to the
# very files of that build (moved aside once by keep_unchanged, so they keep the inodes, sizes and times it
# recorded), as a user's rebuild after a change finds them; Vitrine's records of that build are keyed by those
# paths. (A copy would be new files, which Vitrine rightly hashes again before it trusts them.) Two things a restore
# cannot keep are made to match:
# - Its folders are new folders, and one of hundreds of entries can be another size than the folder that grew entry
#   by entry (136 of the 256 image folders at 10,000 items), while the image index snapshot trusts a folder only at
#   the size and time it recorded. So keep_unchanged restores the build once and builds it again offline without its
#   build state (the full way, the same data), which records the snapshot of restored folders: every later restore
#   makes folders of those sizes.
# - The cache's size ledger is appended to in place, so each restore gets a copy of it, not a link.
keep_unchanged() {
    local size=$1
    rm -rf "$work/base-$size" "$work/first-$size"
    mkdir -p "$work/base-$size" "$work/first-$size"
    mv "$work/out-$size" "$work/cache-$size" "$work/first-$size/"
    cp -al "$work/first-$size/out-$size" "$work/out-$size"
    cp -al "$work/first-$size/cache-$size" "$work/cache-$size"
    rm -f "$work/cache-$size"/builds/*/*.state
    eval "$(vitrine_command "$size" "" --offline)"
    mv "$work/out-$size" "$work/cache-$size" "$work/base-$size/"
    rm -rf "$work/first-$size"
}
restore_unchanged() {
    local size=$1
    local ledger="cache-$size/size-ledger"
    echo "$(set_aside "$work/out-$size" "$work/cache-$size") && cp -al $work/base-$size/out-$size $work/out-$size" \
        "&& cp -al $work/base-$size/cache-$size $work/cache-$size" \
        "&& if [ -f $work/base-$size/$ledger ]; then rm $work/$ledger && cp -p $work/base-$size/$ledger $work/$ledger; fi"
}

# The W3 change: hit 1 of both searches revised at the sample API (restarted on the same port, so the cache keys
# hold), and the command that asks the searches again.
serve_revised() {
    stop_server
    start_server --revise 1 "$@"
}
w3_command() {
    vitrine_command "$1" "" --refresh
}
# Fails unless the last W3 run of `size` items picked up the revised item.
check_revised() {
    local size=$1 what=$2
    grep -q "revised" "$work/out-$size/gallery.xml" || {
        echo "$(basename "$0"): $what did not pick up the revised item." >&2
        exit 1
    }
}
