//! The admins' queue of reports — of a chat line (`chat.report`) or of a
//! person (`POST /api/report/{name}`, a profile's report button):
//! `GET /api/admin/reports` lists them (the open ones, or with `?all=true`
//! every one; a person's report has no line), `POST
//! /api/admin/reports/{id}/resolve` closes one. Admin role only, read from the
//! store at each request.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::HeaderMap;
use qiyuan_store::{ChatReportRow, StoreError};
use serde::{Deserialize, Serialize};

use crate::App;
use crate::authority::admin_only;
use crate::error::{ApiError, ApiResult, Json, Query};

/// The most reports one page lists.
const PAGE: i64 = 500;

#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ReportsQuery {
    /// Resolved reports too.
    all: bool,
}

/// `GET /api/admin/reports`: the reports, oldest first, each with its line.
pub async fn reports(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Query(q): Query<ReportsQuery>,
) -> ApiResult<Json<Vec<ChatReportRow>>> {
    let user = app.accounts.require_user(&headers).await?;
    admin_only(&*app.store, &user).await?;
    Ok(Json(app.store.chat_reports(!q.all, PAGE).await?))
}

#[derive(Debug, Serialize)]
pub struct Resolved {
    resolved: bool,
}

/// `POST /api/admin/reports/{id}/resolve`: `{"resolved": false}` when there
/// is no such open report (resolved already, or never filed).
pub async fn resolve(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Path(id): Path<i64>,
) -> ApiResult<Json<Resolved>> {
    let user = app.accounts.require_user(&headers).await?;
    admin_only(&*app.store, &user).await?;
    let resolved = app
        .store
        .resolve_chat_report(id, user.id, crate::now_ms())
        .await?;
    Ok(Json(Resolved { resolved }))
}

#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PersonReport {
    reason: String,
}

#[derive(Debug, Serialize)]
pub struct Filed {
    report: i64,
}

/// `POST /api/report/{name}` `{"reason"}`: the report button of a profile,
/// filing a report of that person into the admins' queue (one open report of
/// a person by each reporter).
pub async fn report_person(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Path(name): Path<String>,
    Json(req): Json<PersonReport>,
) -> ApiResult<Json<Filed>> {
    let user = app.accounts.require_user(&headers).await?;
    let reason = super::plain(&req.reason);
    if reason.chars().count() > super::MAX_REASON {
        return Err(ApiError::bad_request(
            "too_large",
            format!(
                "a report's reason has at most {} characters",
                super::MAX_REASON
            ),
        ));
    }
    let person = app
        .store
        .user_by_name(&crate::auth::normalize_username(&name))
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no user {name}")))?;
    if person.id == user.id {
        return Err(ApiError::bad_request(
            "self_report",
            "you cannot report yourself",
        ));
    }
    let report = app
        .store
        .report_person(person.id, user.id, &reason, crate::now_ms())
        .await
        .map_err(|e| match e {
            StoreError::Conflict(_) => {
                ApiError::bad_request("already_reported", "you have reported this person already")
            }
            e => e.into(),
        })?;
    Ok(Json(Filed { report }))
}
