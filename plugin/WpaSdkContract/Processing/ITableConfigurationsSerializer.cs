namespace Microsoft.Performance.SDK.Processing
{
    /// <summary>
    /// The host's reader of prebuilt table configurations. The plugin builds its configurations in code, so
    /// none of the members are declared; the type is here because table discovery receives one.
    /// </summary>
    public interface ITableConfigurationsSerializer
    {
    }
}
