import ArgumentParser

/// `--reconnect` of a command that plays live on a device (`play`, `ambient`): a lost device is
/// waited for and played on, instead of exit 74.
struct ReconnectOption: ParsableArguments {
    @Flag(name: .long, help: "Live: when the device disappears, wait for it and resume instead of exiting 74.")
    var reconnect = false
}
