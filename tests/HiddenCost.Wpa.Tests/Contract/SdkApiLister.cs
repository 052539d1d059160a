using System.Globalization;
using System.Reflection;
using System.Runtime.InteropServices;

namespace HiddenCost.Wpa.Tests.Contract;

/// <summary>
/// Lists an assembly's public and protected declarations in "sdkapi format 1", the line format of
/// ../shared/reference/wpa-sdk-api (its README defines it). The assembly is read with MetadataLoadContext,
/// never loaded for execution, so a contract and a deliberately wrong copy can be listed side by side.
/// </summary>
public static class SdkApiLister
{
    private const string Separator = " | ";

    public static IReadOnlyList<string> ListFile(string assemblyPath) =>
        List(context => context.LoadFromAssemblyPath(assemblyPath), assemblyPath);

    public static IReadOnlyList<string> ListImage(byte[] image) =>
        List(context => context.LoadFromByteArray(image), null);

    private static IReadOnlyList<string> List(Func<MetadataLoadContext, Assembly> load, string? extraPath)
    {
        var paths = Directory.GetFiles(RuntimeEnvironment.GetRuntimeDirectory(), "*.dll").ToList();
        if (extraPath is not null) paths.Add(extraPath);
        using var context = new MetadataLoadContext(new PathAssemblyResolver(paths), "System.Private.CoreLib");
        var assembly = load(context);
        var lines = new List<string>();
        foreach (var type in assembly.GetTypes().Where(IsVisible).OrderBy(t => t.FullName, StringComparer.Ordinal))
        {
            lines.Add(TypeLine(type));
            lines.AddRange(MemberLines(type).Order(StringComparer.Ordinal));
        }
        return lines;
    }

    private static bool IsVisible(Type type)
    {
        if (!type.IsNested) return type.IsPublic;
        return (type.IsNestedPublic || type.IsNestedFamily || type.IsNestedFamORAssem) && IsVisible(type.DeclaringType!);
    }

    private static string TypeAccess(Type type) => type.IsPublic || type.IsNestedPublic ? "public" : "protected";

    private static string TypeLine(Type type)
    {
        var fields = new[]
        {
            type.FullName!,
            "type",
            TypeAccess(type),
            KindAndModifiers(type),
            "base=" + (type.IsInterface || type.BaseType is null ? "-" : Format(type.BaseType)),
            "implements=" + Implements(type),
            "generic=" + (type.IsGenericTypeDefinition ? GenericParameters(type.GetGenericArguments()) : "-"),
            "extra=" + TypeExtra(type),
        };
        return string.Join(Separator, fields);
    }

    private static string KindAndModifiers(Type type)
    {
        if (type.IsInterface) return "interface";
        if (type.IsEnum) return "enum";
        if (type.BaseType?.FullName == "System.MulticastDelegate") return "delegate";
        var mods = new List<string>();
        if (type.IsValueType)
        {
            if (HasAttribute(type, "System.Runtime.CompilerServices.IsReadOnlyAttribute")) mods.Add("readonly");
            if (HasAttribute(type, "System.Runtime.CompilerServices.IsByRefLikeAttribute")) mods.Add("ref");
            return string.Join(' ', mods.Prepend("struct"));
        }
        if (type.IsAbstract && type.IsSealed) mods.Add("static");
        else
        {
            if (type.IsAbstract) mods.Add("abstract");
            if (type.IsSealed) mods.Add("sealed");
        }
        return string.Join(' ', mods.Prepend("class"));
    }

    /// <summary>All interfaces, except those that come with the first base type from outside the assembly.</summary>
    private static string Implements(Type type)
    {
        var inherited = new HashSet<Type>();
        for (var ancestor = type.BaseType; ancestor is not null; ancestor = ancestor.BaseType)
        {
            if (ancestor.Assembly != type.Assembly)
            {
                inherited.UnionWith(ancestor.GetInterfaces());
                break;
            }
        }
        var names = type.GetInterfaces().Where(i => !inherited.Contains(i)).Select(Format).Order(StringComparer.Ordinal).ToList();
        return names.Count == 0 ? "-" : string.Join(',', names);
    }

    private static string TypeExtra(Type type)
    {
        var items = new List<string>();
        if (IsAttributeClass(type)) items.Add(Usage(type));
        if (type.IsEnum)
        {
            items.Add("underlying=" + Format(type.GetEnumUnderlyingType()));
            if (HasAttribute(type, "System.FlagsAttribute")) items.Add("flags");
        }
        items.AddRange(Obsolete(type.GetCustomAttributesData()));
        return items.Count == 0 ? "-" : string.Join(';', items);
    }

    private static bool IsAttributeClass(Type type)
    {
        for (var ancestor = type.BaseType; ancestor is not null; ancestor = ancestor.BaseType)
            if (ancestor.FullName == "System.Attribute") return true;
        return false;
    }

    /// <summary>The effective AttributeUsage: the nearest one declared on the type or a base class.</summary>
    private static string Usage(Type type)
    {
        for (var current = type; current is not null; current = current.BaseType)
        {
            var usage = current.GetCustomAttributesData().FirstOrDefault(a => a.AttributeType.FullName == "System.AttributeUsageAttribute");
            if (usage is null) continue;
            var targets = (AttributeTargets)(int)usage.ConstructorArguments[0].Value!;
            bool multiple = false, inherited = true;
            foreach (var named in usage.NamedArguments)
            {
                if (named.MemberName == "AllowMultiple") multiple = (bool)named.TypedValue.Value!;
                if (named.MemberName == "Inherited") inherited = (bool)named.TypedValue.Value!;
            }
            return $"usage={targets.ToString().Replace(", ", "|")},multiple={Lower(multiple)},inherited={Lower(inherited)}";
        }
        return "usage=All,multiple=false,inherited=true";
    }

    private static IEnumerable<string> Obsolete(IEnumerable<CustomAttributeData> attributes)
    {
        var obsolete = attributes.FirstOrDefault(a => a.AttributeType.FullName == "System.ObsoleteAttribute");
        if (obsolete is null) yield break;
        bool isError = obsolete.ConstructorArguments.Count == 2 && (bool)obsolete.ConstructorArguments[1].Value!;
        yield return isError ? "obsolete-error" : "obsolete";
    }

    private static IEnumerable<string> MemberLines(Type type)
    {
        const BindingFlags declared = BindingFlags.DeclaredOnly | BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Instance | BindingFlags.Static;
        string name = type.FullName!;
        var accessors = new HashSet<MethodInfo>();

        foreach (var property in type.GetProperties(declared))
        {
            var visible = property.GetAccessors(nonPublic: true).Where(IsVisible).ToList();
            accessors.UnionWith(property.GetAccessors(nonPublic: true));
            if (visible.Count == 0) continue;
            yield return PropertyLine(name, property, visible);
        }
        foreach (var @event in type.GetEvents(declared))
        {
            var add = @event.AddMethod!;
            accessors.Add(add);
            if (@event.RemoveMethod is { } remove) accessors.Add(remove);
            if (!IsVisible(add)) continue;
            yield return string.Join(Separator, name, "event", Access(add), MethodModifiers(add), $"{@event.Name} : {Format(@event.EventHandlerType!)}", "add;remove", "extra=" + Extra(@event.GetCustomAttributesData(), null));
        }
        bool isDelegate = type.BaseType?.FullName == "System.MulticastDelegate";
        foreach (var constructor in type.GetConstructors(declared))
        {
            if (isDelegate || constructor.IsStatic || !IsVisible(constructor)) continue;
            yield return string.Join(Separator, name, "ctor", Access(constructor), "-", $".ctor({Parameters(constructor)})", "-", "extra=" + Extra(constructor.GetCustomAttributesData(), null));
        }
        foreach (var method in type.GetMethods(declared))
        {
            if (accessors.Contains(method) || !IsVisible(method)) continue;
            if (isDelegate && method.Name != "Invoke") continue;
            string generic = method.IsGenericMethodDefinition ? $"<{string.Join(',', method.GetGenericArguments().Select(a => a.Name))}>" : "";
            string signature = $"{method.Name}{generic}({Parameters(method)}) : {ReturnType(method)}";
            string? genericExtra = method.IsGenericMethodDefinition ? "generic=" + GenericParameters(method.GetGenericArguments()) : null;
            yield return string.Join(Separator, name, "method", Access(method), MethodModifiers(method), signature, "-", "extra=" + Extra(method.GetCustomAttributesData(), genericExtra));
        }
        foreach (var field in type.GetFields(declared))
        {
            if (field.IsSpecialName || !IsVisible(field)) continue;
            yield return FieldLine(name, field);
        }
    }

    private static string PropertyLine(string typeName, PropertyInfo property, List<MethodInfo> visible)
    {
        var getter = property.GetMethod is { } g && IsVisible(g) ? g : null;
        var setter = property.SetMethod is { } s && IsVisible(s) ? s : null;
        var widest = visible.OrderByDescending(AccessRank).ThenBy(m => m == getter ? 0 : 1).First();
        string access = Access(widest);
        var parts = new List<string>();
        if (getter is not null) parts.Add((Access(getter) == access ? "" : Access(getter) + " ") + "get");
        if (setter is not null)
        {
            bool init = setter.ReturnParameter.GetRequiredCustomModifiers().Any(m => m.FullName == "System.Runtime.CompilerServices.IsExternalInit");
            parts.Add((Access(setter) == access ? "" : Access(setter) + " ") + (init ? "init" : "set"));
        }
        var index = property.GetIndexParameters();
        string signature = index.Length == 0
            ? $"{property.Name} : {Format(property.PropertyType)}"
            : $"{property.Name}[{string.Join(", ", index.Select(p => Parameter(p, null)))}] : {Format(property.PropertyType)}";
        return string.Join(Separator, typeName, "property", access, MethodModifiers(widest), signature, string.Join(';', parts), "extra=" + Extra(property.GetCustomAttributesData(), null));
    }

    private static string FieldLine(string typeName, FieldInfo field)
    {
        string mods;
        string signature = $"{field.Name} : {Format(field.FieldType)}";
        if (field.IsLiteral)
        {
            mods = "const";
            signature += " = " + Constant(field.GetRawConstantValue(), field.FieldType);
        }
        else
        {
            var list = new List<string>();
            if (field.IsStatic) list.Add("static");
            if (field.IsInitOnly) list.Add("readonly");
            mods = list.Count == 0 ? "-" : string.Join(' ', list);
        }
        return string.Join(Separator, typeName, "field", Access(field), mods, signature, "-", "extra=" + Extra(field.GetCustomAttributesData(), null));
    }

    private static string Extra(IEnumerable<CustomAttributeData> attributes, string? generic)
    {
        var items = new List<string>();
        if (generic is not null) items.Add(generic);
        items.AddRange(Obsolete(attributes));
        return items.Count == 0 ? "-" : string.Join(';', items);
    }

    /// <summary>
    /// virtual = a new overridable slot; override = a reused slot (sealed when final). A final new slot (an
    /// implicit interface implementation) is not overridable from C#, so it gets no modifier.
    /// </summary>
    private static string MethodModifiers(MethodBase method)
    {
        var mods = new List<string>();
        if (method.IsStatic) mods.Add("static");
        bool newSlot = (method.Attributes & MethodAttributes.VtableLayoutMask) == MethodAttributes.NewSlot;
        if (method.IsAbstract)
        {
            mods.Add("abstract");
            if (!newSlot && !method.DeclaringType!.IsInterface) mods.Add("override");
        }
        else if (method.IsVirtual)
        {
            if (newSlot && !method.IsFinal) mods.Add("virtual");
            else if (!newSlot)
            {
                mods.Add("override");
                if (method.IsFinal) mods.Add("sealed");
            }
        }
        if (HasAttribute(method, "System.Runtime.CompilerServices.IsReadOnlyAttribute")) mods.Add("readonly");
        return mods.Count == 0 ? "-" : string.Join(' ', mods);
    }

    private static string ReturnType(MethodInfo method)
    {
        var type = method.ReturnType;
        if (!type.IsByRef) return Format(type);
        bool isReadOnly = method.ReturnParameter.GetCustomAttributesData().Any(a => a.AttributeType.FullName == "System.Runtime.CompilerServices.IsReadOnlyAttribute");
        return (isReadOnly ? "ref readonly " : "ref ") + Format(type.GetElementType()!);
    }

    private static string Parameters(MethodBase method)
    {
        bool extension = method.IsStatic && HasAttribute(method, "System.Runtime.CompilerServices.ExtensionAttribute");
        return string.Join(", ", method.GetParameters().Select((p, i) => Parameter(p, extension && i == 0 ? "this " : null)));
    }

    private static string Parameter(ParameterInfo parameter, string? prefix)
    {
        var type = parameter.ParameterType;
        string modifier = "";
        if (type.IsByRef)
        {
            bool readOnly = parameter.GetCustomAttributesData().Any(a => a.AttributeType.FullName == "System.Runtime.CompilerServices.IsReadOnlyAttribute");
            modifier = parameter.IsOut && !parameter.IsIn ? "out " : readOnly || parameter.IsIn ? "in " : "ref ";
            type = type.GetElementType()!;
        }
        else if (parameter.GetCustomAttributesData().Any(a => a.AttributeType.FullName == "System.ParamArrayAttribute"))
        {
            modifier = "params ";
        }
        string text = $"{prefix}{modifier}{Format(type)} {parameter.Name}";
        if (parameter.HasDefaultValue) text += " = " + DefaultValue(parameter.RawDefaultValue, type);
        return text;
    }

    private static string DefaultValue(object? value, Type type)
    {
        if ((value is null || value is DBNull || value == Missing.Value) && type.IsValueType && !IsNullable(type)) return "default";
        return Constant(value is DBNull || value == Missing.Value ? null : value, type);
    }

    private static string Constant(object? value, Type type) => value switch
    {
        null => "null",
        string s => "\"" + s + "\"",
        bool b => Lower(b),
        char c => "'" + c + "'",
        IFormattable f => f.ToString(null, CultureInfo.InvariantCulture),
        _ => value.ToString() ?? "null",
    };

    private static bool IsNullable(Type type) => type.IsGenericType && type.GetGenericTypeDefinition().FullName == "System.Nullable`1";

    private static string GenericParameters(Type[] parameters) => string.Join("; ", parameters.Select(GenericParameter));

    private static string GenericParameter(Type parameter)
    {
        var attributes = parameter.GenericParameterAttributes;
        string variance = (attributes & GenericParameterAttributes.Covariant) != 0 ? "out "
            : (attributes & GenericParameterAttributes.Contravariant) != 0 ? "in " : "";
        var constraints = new List<string>();
        bool isStruct = (attributes & GenericParameterAttributes.NotNullableValueTypeConstraint) != 0;
        if ((attributes & GenericParameterAttributes.ReferenceTypeConstraint) != 0) constraints.Add("class");
        if (isStruct) constraints.Add("struct");
        if ((attributes & GenericParameterAttributes.DefaultConstructorConstraint) != 0 && !isStruct) constraints.Add("new()");
        constraints.AddRange(parameter.GetGenericParameterConstraints()
            .Where(c => !(isStruct && c.FullName == "System.ValueType"))
            .Select(Format).Order(StringComparer.Ordinal));
        return variance + parameter.Name + (constraints.Count == 0 ? "" : ": " + string.Join(", ", constraints));
    }

    /// <summary>Namespace-qualified CLR names: Outer+Inner, Name`N&lt;A,B&gt;, T[], T*; generic parameters by name.</summary>
    public static string Format(Type type)
    {
        if (type.IsGenericParameter) return type.Name;
        if (type.IsArray)
            return Format(type.GetElementType()!) + "[" + new string(',', type.GetArrayRank() - 1) + "]";
        if (type.IsPointer) return Format(type.GetElementType()!) + "*";
        if (type.IsByRef) return "ref " + Format(type.GetElementType()!);
        if (type.IsGenericType && !type.IsGenericTypeDefinition)
            return type.GetGenericTypeDefinition().FullName + "<" + string.Join(',', type.GetGenericArguments().Select(Format)) + ">";
        return type.FullName ?? type.Name;
    }

    private static bool IsVisible(MethodBase method) => method.IsPublic || method.IsFamily || method.IsFamilyOrAssembly;

    private static bool IsVisible(FieldInfo field) => field.IsPublic || field.IsFamily || field.IsFamilyOrAssembly;

    private static int AccessRank(MethodBase method) => method.IsPublic ? 2 : 1;

    private static string Access(MethodBase method) => method.IsPublic ? "public" : "protected";

    private static string Access(FieldInfo field) => field.IsPublic ? "public" : "protected";

    private static bool HasAttribute(MemberInfo member, string fullName) =>
        member.GetCustomAttributesData().Any(a => a.AttributeType.FullName == fullName);

    private static string Lower(bool value) => value ? "true" : "false";
}
