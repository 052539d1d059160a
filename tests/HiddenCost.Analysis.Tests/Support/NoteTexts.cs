using HiddenCost.Analysis.Model;

namespace HiddenCost.Analysis.Tests;

/// <summary>The texts of a table's notes, for tests that pin down what a note says.</summary>
internal static class NoteTexts
{
    public static IReadOnlyList<string> Texts(this IReadOnlyList<TableNote> notes) => notes.Select(n => n.Text).ToArray();
}
