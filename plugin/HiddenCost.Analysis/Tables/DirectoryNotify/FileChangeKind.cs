namespace HiddenCost.Analysis.Tables.DirectoryNotify;

/// <summary>A change to a file that wakes directory watchers. A Cleanup alone is not one (every read ends in one).</summary>
public enum FileChangeKind
{
    Create,
    Delete,
    Rename,
    Write,
}
