using System.Text;

namespace HiddenCost.Cli.Input;

/// <summary>
/// A file name as messages print it: unchanged when it is plain text; otherwise quoted as bash's $'…' quotes, with
/// control characters (a newline would split a one-line message in two), bytes that are not UTF-8, backslashes and
/// quotes escaped, so that every name prints on one line, no two names print alike, and the printed name can be pasted
/// back into a shell. A name that itself starts with $' is quoted too, so that it cannot pass for a quoted one.
/// </summary>
public static class DisplayName
{
    /// <param name="name">The name as .NET has it.</param>
    /// <param name="nativeBytes">Its bytes when they are not UTF-8 (.NET's string then holds U+FFFD for them), else null.</param>
    public static string Of(string name, byte[]? nativeBytes = null)
    {
        if (nativeBytes is null && !NeedsQuoting(name)) return name;
        var quoted = new StringBuilder("$'");
        if (nativeBytes is not null) AppendBytes(quoted, nativeBytes);
        else foreach (var rune in name.EnumerateRunes()) Append(quoted, rune);
        return quoted.Append('\'').ToString();
    }

    private static bool NeedsQuoting(string name)
    {
        if (name.StartsWith("$'", StringComparison.Ordinal)) return true;
        foreach (var rune in name.EnumerateRunes())
            if (IsControl(rune)) return true;
        return false;
    }

    private static bool IsControl(Rune rune) =>
        Rune.IsControl(rune) || rune.Value is 0x2028 or 0x2029 or 0x85;

    /// <summary>Valid UTF-8 sequences as their characters, each other byte as \xNN.</summary>
    private static void AppendBytes(StringBuilder quoted, ReadOnlySpan<byte> bytes)
    {
        while (!bytes.IsEmpty)
        {
            if (Rune.DecodeFromUtf8(bytes, out var rune, out int used) == System.Buffers.OperationStatus.Done)
                Append(quoted, rune);
            else
                for (int i = 0; i < used; i++) quoted.Append($"\\x{bytes[i]:X2}");
            bytes = bytes[Math.Max(used, 1)..];
        }
    }

    private static void Append(StringBuilder quoted, Rune rune)
    {
        switch (rune.Value)
        {
            case '\n': quoted.Append("\\n"); return;
            case '\r': quoted.Append("\\r"); return;
            case '\t': quoted.Append("\\t"); return;
            case '\\': quoted.Append("\\\\"); return;
            case '\'': quoted.Append("\\'"); return;
        }
        if (IsControl(rune)) quoted.Append(rune.Value <= 0xFF ? $"\\x{rune.Value:X2}" : $"\\u{rune.Value:X4}");
        else quoted.Append(rune.ToString());
    }
}
