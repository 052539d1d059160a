using System.Collections.Concurrent;
using System.Globalization;
using Microsoft.Performance.SDK.Processing;

namespace HiddenCost.Wpa.Tests.Host;

/// <summary>
/// The host services WPA gives a plugin, recorded: its log (Diagnostic Console) and the messages shown to the
/// user. One instance per hosted trace, so parallel tests never share state.
/// </summary>
public sealed class TestHost : IApplicationEnvironment, IProcessorEnvironment, ILogger
{
    private readonly ConcurrentQueue<LogEntry> _log = new();
    private readonly ConcurrentQueue<string> _messages = new();

    public IReadOnlyList<LogEntry> Log => _log.ToArray();

    /// <summary>What the user saw, as "Level: text".</summary>
    public IReadOnlyList<string> Messages => _messages.ToArray();

    public ITableConfigurationsSerializer Serializer { get; } = new NoPrebuiltConfigurations();

    /// <summary>WPA's window (true) or a batch export / headless engine (false).</summary>
    public bool IsInteractive { get; init; } = true;

    public void DisplayMessage(MessageType messageType, IFormatProvider formatProvider, string format, params object[] args) =>
        _messages.Enqueue(messageType + ": " + string.Format(formatProvider, format, args));

    public ILogger CreateLogger(Type processorType) => this;

    public void Error(string fmt, params object[] args) => Add("Error", null, fmt, args);
    public void Error(Exception e, string fmt, params object[] args) => Add("Error", e, fmt, args);
    public void Warn(string fmt, params object[] args) => Add("Warn", null, fmt, args);
    public void Info(string fmt, params object[] args) => Add("Info", null, fmt, args);

    public IEnumerable<LogEntry> Entries(string level) => Log.Where(e => e.Level == level);

    private void Add(string level, Exception? exception, string fmt, object[] args) =>
        _log.Enqueue(new LogEntry(level, string.Format(CultureInfo.InvariantCulture, fmt, args), exception));

    private sealed class NoPrebuiltConfigurations : ITableConfigurationsSerializer;
}

public sealed record LogEntry(string Level, string Text, Exception? Exception);
