using System.Text.Json;

namespace HiddenCost.Packaging.Tests;

/// <summary>
/// The shape a JSON value must have: its kind, and for an object exactly its field names (a deserializer with
/// default options matches names case-sensitively and skips unknown ones, so a misnamed field would be read as
/// missing without a word). <see cref="Check"/> fails naming the path of the first value out of shape.
/// </summary>
internal abstract record JsonShape(bool Nullable)
{
    public void Check(JsonElement value, string path)
    {
        if (value.ValueKind == JsonValueKind.Null)
        {
            if (!Nullable) Assert.Fail($"{path} is null, which the schema does not allow");
            return;
        }
        CheckValue(value, path);
    }

    protected abstract void CheckValue(JsonElement value, string path);

    protected static void Expect(JsonElement value, JsonValueKind kind, string path) =>
        Assert.AreEqual(kind, value.ValueKind, $"{path}: JSON kind");
}

internal sealed record JsonString(bool Nullable = false, Func<string, bool>? Valid = null, string What = "a string")
    : JsonShape(Nullable)
{
    protected override void CheckValue(JsonElement value, string path)
    {
        Expect(value, JsonValueKind.String, path);
        if (Valid is not null) Assert.IsTrue(Valid(value.GetString()!), $"{path} = \"{value.GetString()}\" is not {What}");
    }
}

internal sealed record JsonNumber(Func<JsonElement, bool>? Valid = null, string What = "a number") : JsonShape(Nullable: false)
{
    protected override void CheckValue(JsonElement value, string path)
    {
        Expect(value, JsonValueKind.Number, path);
        if (Valid is not null) Assert.IsTrue(Valid(value), $"{path} = {value.GetRawText()} is not {What}");
    }
}

internal sealed record JsonBoolean() : JsonShape(Nullable: false)
{
    protected override void CheckValue(JsonElement value, string path) =>
        Assert.IsTrue(value.ValueKind is JsonValueKind.True or JsonValueKind.False, $"{path}: expected true or false, found {value.ValueKind}");
}

internal sealed record JsonArray(JsonShape Item, bool Nullable = false) : JsonShape(Nullable)
{
    protected override void CheckValue(JsonElement value, string path)
    {
        Expect(value, JsonValueKind.Array, path);
        int i = 0;
        foreach (var item in value.EnumerateArray()) Item.Check(item, $"{path}[{i++}]");
    }
}

internal sealed record JsonObject(bool Nullable, params (string Name, JsonShape Shape)[] Fields) : JsonShape(Nullable)
{
    protected override void CheckValue(JsonElement value, string path)
    {
        Expect(value, JsonValueKind.Object, path);
        var present = value.EnumerateObject().Select(p => p.Name).ToList();
        var expected = Fields.Select(f => f.Name).ToList();
        CollectionAssert.AreEquivalent(expected, present,
            $"{path}: fields [{string.Join(", ", present)}], the schema has [{string.Join(", ", expected)}]");
        foreach (var (name, shape) in Fields) shape.Check(value.GetProperty(name), $"{path}.{name}");
    }
}
