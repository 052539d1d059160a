namespace HiddenCost.Cli.Output;

public enum OutputFormat
{
    Text,
    Csv,
    Json,
}
