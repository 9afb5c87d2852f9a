def test_home_page_links_to_the_organiser_login_and_health(client):
    response = client.get("/")

    assert response.status_code == 200
    assert [template.name for template in response.templates] == ["home.html", "base.html"]
    assert b'href="/admin/"' in response.content
    assert b'href="/healthz"' in response.content
