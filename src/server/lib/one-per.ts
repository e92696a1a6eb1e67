/**
 * One value per owner (a database, a list cache), made at its first use and kept as long as the
 * owner is.
 */
export function onePer<Owner extends object, Value>(
  make: (owner: Owner) => Value,
): (owner: Owner) => Value {
  const values = new WeakMap<Owner, Value>();
  return (owner) => {
    let value = values.get(owner);
    if (value === undefined) {
      value = make(owner);
      values.set(owner, value);
    }
    return value;
  };
}
