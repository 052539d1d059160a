using System;

namespace Microsoft.Performance.SDK.Processing
{
    public abstract class DataSource : IDataSource
    {
        protected DataSource(Uri uri)
        {
            this.Uri = uri ?? throw new ArgumentNullException(nameof(uri));
        }

        public Uri Uri { get; }
    }
}
