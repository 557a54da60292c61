//! The rules between a model's fields and their versions, checked on the
//! whole [`ast`](super::ast); every violation is reported.

use super::ast::{Field, Input, Presence};
use crate::shared::errors::Errors;

pub(super) fn input(input: &Input, errors: &mut Errors) {
    for field in &input.fields {
        presence(field, errors);
        representations(field, errors);
    }
}

fn presence(field: &Field, errors: &mut Errors) {
    let ident = &field.ident;
    if field.optional && field.default {
        errors.at(ident, "an `Option` field is already optional: `default` is not needed");
    }
    if field.skip_none && !field.optional {
        errors
            .at(ident, "`skip_none` leaves a `None` out of responses: it applies to an `Option` field only");
    }
    if field.nested && (field.schema.is_some() || field.json_schema) {
        errors.at(ident, "a `nested` model describes its own schema: `schema` is not allowed with it");
    }
    if field.json_schema && field.schema.is_some() {
        errors.at(ident, "`json_schema` takes the type's own schema: give it or `schema = ...`, not both");
    }
    if let Some(range) = &field.range
        && let Some(versions) = range.range()
        && field.presence() == Presence::Required
    {
        errors.at(
            &range.tokens,
            format!(
                "`{ident}` exists only in versions {versions}, so it needs a value at other versions: \
                 make it an `Option` or add `default`"
            ),
        );
    }
}

/// `render(...)` ranges lie inside the field's and do not overlap.
fn representations(field: &Field, errors: &mut Errors) {
    let ident = &field.ident;
    let served = field.range();
    let sound: Vec<_> =
        field.renders.iter().filter_map(|r| r.range.range().map(|range| (r, range))).collect();
    for (i, (render, range)) in sound.iter().enumerate() {
        if !served.covers(*range) {
            errors.at(
                &render.range.tokens,
                format!("this representation covers versions {range} but `{ident}` exists only in versions {served}"),
            );
        }
        for (other, other_range) in &sound[i + 1..] {
            if let Some(common) = range.intersection(*other_range) {
                errors
                    .at(&other.range.tokens, format!("two representations of `{ident}` overlap at {common}"));
            }
        }
    }
}
