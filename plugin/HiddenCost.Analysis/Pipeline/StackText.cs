using HiddenCost.Etl.State;
using HiddenCost.Etl.Stacks;

namespace HiddenCost.Analysis.Pipeline;

/// <summary>
/// A sampled stack as one line of text for a table cell: leaf first (kernel part, then the user part that called
/// it), each frame <c>module!Function</c> when its image's PDB resolves, else the method name of .NET code, else
/// <c>module+0xRVA</c>. Frames in no known image say nothing and are left out, a run of frames with the same name
/// (recursion, or several addresses in one unnamed function) is shown once, and at most <see cref="MaxFrames"/> are kept.
/// </summary>
public sealed class StackText(TraceState state, SymbolNames symbols, StackStore store)
{
    public const int MaxFrames = 12;
    public const string MaxFramesText = "12";
    public const string Separator = " ← ";

    private readonly Dictionary<(int Stack, int Process), string?> _made = new();

    /// <summary>The stack <paramref name="stack"/> sampled in <paramref name="processId"/> at <paramref name="t"/>, or null when none of its frames is known.</summary>
    public string? Of(int stack, int processId, long t)
    {
        if (_made.TryGetValue((stack, processId), out var text)) return text;
        var frames = store.GetFrames(new StackId(stack));
        var names = new List<string>(MaxFrames);
        Add(names, frames.Kernel, processId, t);
        Add(names, frames.User, processId, t);
        return _made[(stack, processId)] = names.Count == 0 ? null : string.Join(Separator, names);
    }

    private void Add(List<string> names, ReadOnlySpan<ulong> frames, int processId, long t)
    {
        foreach (ulong address in frames)
        {
            if (names.Count == MaxFrames) return;
            var frame = state.ResolveFrame(processId, address, t);
            if (!frame.IsResolved) continue;
            string name = frame.Method is null && frame.Image is { } image && symbols.Name(image, address) is { } symbol ? symbol : frame.Name;
            if (names.Count == 0 || names[^1] != name) names.Add(name);
        }
    }
}
