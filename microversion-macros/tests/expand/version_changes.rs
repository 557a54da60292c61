/// Widgets' `colour` is spelled `color`.
#[version_change(api = SHOP, "1.2", field(Widget::color, renamed_from = "colour"), crate = ::microversion_axum)]
struct ColorSpelling;

#[controller(api = SHOP, crate = ::microversion_axum)]
impl Widgets {
    #[post("/widgets")]
    #[api_version("1.0")]
    #[response(201)]
    #[change(ColorSpelling, body, answer, status = 200, doc = "Creates a widget (200).")]
    async fn create(&self, body: Json<NewWidget>) -> Result<Answer<Widget>, ApiError> {
        Ok(Answer::created(Widget::from(body.0)))
    }
}
