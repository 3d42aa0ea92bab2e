//! The admins' queue of chat reports: `GET /api/admin/reports` lists them
//! (the open ones, or with `?all=true` every one), `POST
//! /api/admin/reports/{id}/resolve` closes one. Admin role only, read from the
//! store at each request.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::HeaderMap;
use qiyuan_store::ChatReportRow;
use serde::{Deserialize, Serialize};

use crate::App;
use crate::authority::admin_only;
use crate::error::{ApiResult, Json, Query};

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
