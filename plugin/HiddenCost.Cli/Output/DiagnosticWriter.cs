using System.Text;

namespace HiddenCost.Cli.Output;

/// <summary>
/// Standard error for the program's messages, as a writer that never fails: with descriptor 2 closed or unwritable
/// (`hiddencost x.etl 2>&amp;-`), a message that cannot be shown is dropped and the exit code still says what happened.
/// .NET's console writer threw instead, and the program then died writing that exception to the same stream (exit 134).
/// </summary>
public sealed class DiagnosticWriter : TextWriter
{
    private readonly TextWriter _inner;
    private bool _unwritable;

    public DiagnosticWriter(TextWriter inner) => _inner = inner;

    public override Encoding Encoding => _inner.Encoding;

    public override void Write(char value)
    {
        if (_unwritable) return;
        try { _inner.Write(value); }
        catch (Exception e) when (IsUnwritable(e)) { _unwritable = true; }
    }

    public override void Write(char[] buffer, int index, int count)
    {
        if (_unwritable) return;
        try { _inner.Write(buffer, index, count); }
        catch (Exception e) when (IsUnwritable(e)) { _unwritable = true; }
    }

    public override void Write(string? value)
    {
        if (_unwritable) return;
        try { _inner.Write(value); }
        catch (Exception e) when (IsUnwritable(e)) { _unwritable = true; }
    }

    public override void WriteLine(string? value)
    {
        if (_unwritable) return;
        try { _inner.WriteLine(value); }
        catch (Exception e) when (IsUnwritable(e)) { _unwritable = true; }
    }

    public override void Flush()
    {
        if (_unwritable) return;
        try { _inner.Flush(); }
        catch (Exception e) when (IsUnwritable(e)) { _unwritable = true; }
    }

    /// <summary>How a stream that cannot be written fails: EBADF comes as UnauthorizedAccessException on Unix.</summary>
    public static bool IsUnwritable(Exception e) => e is IOException or UnauthorizedAccessException or ObjectDisposedException;
}
