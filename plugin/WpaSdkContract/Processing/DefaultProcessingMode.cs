using System;

namespace Microsoft.Performance.SDK.Processing
{
    /// <summary>The processing mode of a group that needs no special treatment.</summary>
    public sealed class DefaultProcessingMode : IProcessingMode
    {
        public static readonly Guid Id = new Guid("f97c3411-5df5-4633-9efd-470beebf40ef");

        public Guid Guid => Id;

        public string Name => "Default";

        public string Description => "A non-special method of processing data sources.";
    }
}
