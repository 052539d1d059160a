using System.Text;

namespace HiddenCost.Cli.Output;

/// <summary>The file `--output` names, as a writer.</summary>
public static class OutputFile
{
    /// <summary>
    /// UTF-8 without a byte-order mark, and a lone UTF-16 surrogate (a trace's strings are whatever the traced program
    /// logged) written as U+FFFD, as standard output writes it: StreamWriter's own UTF-8 threw instead, mid-table.
    /// </summary>
    public static readonly Encoding Utf8 = new UTF8Encoding(encoderShouldEmitUTF8Identifier: false, throwOnInvalidBytes: false);

    /// <summary>The file as a writer that replaces an earlier one only on <see cref="ReplacingOutputFile.Commit"/>.</summary>
    public static ReplacingOutputFile Create(string path) => ReplacingOutputFile.Create(path);
}
