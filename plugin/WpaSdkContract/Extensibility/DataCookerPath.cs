namespace Microsoft.Performance.SDK.Extensibility
{
    /// <summary>
    /// Names a data cooker. Declared only because <c>TableDescriptor</c>'s constructor takes an optional list
    /// of them; the plugin builds its tables itself and requires no cookers.
    /// </summary>
    public struct DataCookerPath
    {
    }
}
