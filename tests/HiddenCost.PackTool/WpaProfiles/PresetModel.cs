using System.Xml.Linq;

namespace HiddenCost.PackTool.WpaProfiles;

/// <summary>How WPA aggregates a column below a pivot.</summary>
public enum Aggregation { None, Sum, Max, Min, Count, UniqueCount }

/// <summary>A column of a preset: GUID, name and display options (children such as StackOptionsParameter).</summary>
public sealed record PresetColumn(Guid Id, string Name, Aggregation Aggregation = Aggregation.None, int Width = 110,
    bool Visible = true, bool SortDescending = false, XElement[]? Options = null);

/// <summary>A WPA column metadata role (StartTime, EndTime, Duration, ResourceId, EndThreadId, WaitStartTime, ...).</summary>
public sealed record PresetMetadata(Guid ColumnId, string Name, string Role);

/// <summary>
/// One graph of a view: a table (by GUID) shown with one preset; <c>Graphed</c> false opens it as its table alone
/// (<c>LayoutStyle="DataTable"</c>, which UIforETW's and MSO-Scripts' profiles use, instead of <c>All</c>).
/// </summary>
public sealed record PresetGraph(
    string TableName,
    Guid TableId,
    string PresetName,
    IReadOnlyList<PresetColumn> Columns,
    int KeyColumns,
    IReadOnlyList<PresetMetadata> Metadata,
    string Color,
    string? InitialFilter = null,
    bool Graphed = true);

/// <summary>A view (tab) of a profile.</summary>
public sealed record PresetView(string Title, IReadOnlyList<PresetGraph> Graphs);

/// <summary>A .wpaProfile file.</summary>
public sealed record PresetFile(string FileName, string Description, IReadOnlyList<PresetView> Views);
