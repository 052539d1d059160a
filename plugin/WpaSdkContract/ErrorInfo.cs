using System;

namespace Microsoft.Performance.SDK
{
    /// <summary>An error a data source reports to the host (see <c>DataSourceInfo.Errors</c>).</summary>
    public class ErrorInfo
    {
        public ErrorInfo(string code, string message)
        {
            this.Code = code ?? throw new ArgumentNullException(nameof(code));
            this.Message = message ?? throw new ArgumentNullException(nameof(message));
        }

        public string Code { get; }

        public string Message { get; }

        public override string ToString() => this.Code + ": " + this.Message;
    }
}
