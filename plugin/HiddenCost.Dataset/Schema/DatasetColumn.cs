namespace HiddenCost.Dataset.Schema;

/// <param name="Name">The snake_case name in the files (<see cref="NameRule"/>).</param>
/// <param name="SourceName">The table model's column name it comes from; null for the dataset's own columns.</param>
/// <param name="Unit">What a number counts ("ns", "ms", "bytes" …), empty when nothing.</param>
public sealed record DatasetColumn(string Name, DatasetType Type, string Description, string? SourceName = null, string Unit = "");
