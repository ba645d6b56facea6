<?xml version="1.0" encoding="UTF-8"?>
<!--
  Vitrine default theme: a site's search page (search.html at the output root, vitrine build).
  The model is a <site> with its galleries in outline (docs/model.md, "Search"); $page is the @id of its <search>
  ('search'), $root is ''. search.xsl's page under the site's header: search.js loads the site's index script
  (search/@index), whose entries link to every gallery's preview pages and name their gallery.
-->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">

  <xsl:import href="search.xsl"/>

  <xsl:output method="html" encoding="UTF-8" indent="no" doctype-system="about:legacy-compat"/>

  <xsl:template name="site-header"><xsl:call-template name="home-header"/></xsl:template>

  <xsl:template name="site-footer"><xsl:call-template name="home-footer"/></xsl:template>

</xsl:stylesheet>
