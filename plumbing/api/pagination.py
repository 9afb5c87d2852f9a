"""The API's pages (REST_FRAMEWORK's DEFAULT_PAGINATION_CLASS, and the base of a view's own):
a page number that is not one is refused with 400 naming ``page``, a page past the end with a
404 saying how many there are (DRF answered both 404 "Invalid page."), and a view that lets
the client choose its page size (``page_size_query_param``) refuses one out of bounds with 400
naming them. No page, or an empty one, is the first; no size, or an empty one, the default."""

import re

from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.pagination import PageNumberPagination


class Pages(PageNumberPagination):
    def get_page_number(self, request, paginator):
        number = request.query_params.get(self.page_query_param, "")
        if not number:
            return 1
        if number in self.last_page_strings:  # DRF's ?page=last
            return paginator.num_pages
        digits = number.lstrip("0")
        if not re.fullmatch(r"[0-9]+", number) or not digits:
            raise ValidationError({self.page_query_param: [
                f"a whole number from 1, not {number[:40]!r}"]})
        pages = paginator.num_pages
        # Its length first: int() takes no more than 4300 digits.
        if len(digits) > len(str(pages)) or int(digits) > pages:
            raise NotFound(f"there is no page {digits[:40]}: there "
                           f"{'is 1 page' if pages == 1 else f'are {pages} pages'}")
        return int(digits)

    def get_page_size(self, request):
        if not self.page_size_query_param:
            return self.page_size
        size = request.query_params.get(self.page_size_query_param, "")
        if not size:
            return self.page_size
        if not re.fullmatch(r"[0-9]{1,6}", size) or not 1 <= int(size) <= self.max_page_size:
            raise ValidationError({self.page_size_query_param: [
                f"a whole number from 1 to {self.max_page_size}, not {size[:40]!r}"]})
        return int(size)

    def get_schema_operation_parameters(self, view):
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            if parameter["name"] == self.page_query_param:
                parameter["schema"].update(minimum=1)
            elif parameter["name"] == self.page_size_query_param:
                parameter["schema"].update(minimum=1, maximum=self.max_page_size)
        return parameters
